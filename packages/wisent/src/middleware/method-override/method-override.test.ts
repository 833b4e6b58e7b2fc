import { describe, expect, it } from "vitest";
import { HttpError } from "../../base/http-error.js";
import { multipartEntriesOf } from "../../http/body.js";
import { overrideMethod } from "./method-override.js";

const form = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/widgets/1", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-extra": "kept", ...headers },
    body,
  });

async function thrown(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (err) {
    return err as HttpError;
  }
  throw new Error("expected a rejection");
}

describe("overrideMethod", () => {
  it.each(["PUT", "put", "Patch", "delete", " DELETE "])(
    "turns _method=%s into its upper-case method",
    async (value) => {
      const result = await overrideMethod(form(`title=a&_method=${encodeURIComponent(value)}`));
      expect(result.method).toBe(value.trim().toUpperCase());
      expect(await result.text()).toBe(`title=a&_method=${encodeURIComponent(value)}`);
      expect(result.headers.get("x-extra")).toBe("kept");
    },
  );

  it("reads _method from multipart bodies, once: the new request shares what was read", async () => {
    const body = new FormData();
    body.set("_method", "DELETE");
    body.set("title", "a");
    const result = await overrideMethod(
      new Request("http://localhost/w", { method: "POST", body }),
    );
    expect(result.method).toBe("DELETE");
    expect(await multipartEntriesOf(result)).toEqual([
      ["_method", "DELETE"],
      ["title", "a"],
    ]);
  });

  it("leaves a POST without _method a POST with its body readable", async () => {
    const result = await overrideMethod(form("title=a"));
    expect(result.method).toBe("POST");
    expect(await result.text()).toBe("title=a");
  });

  it("returns other requests untouched", async () => {
    const get = new Request("http://localhost/w");
    expect(await overrideMethod(get)).toBe(get);
    const json = new Request("http://localhost/w", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"_method":"DELETE"}',
    });
    expect(await overrideMethod(json)).toBe(json);
  });

  it.each(["GET", "TRACE", "CONNECT", "bogus"])(
    "refuses _method=%s with a 400 naming it",
    async (value) => {
      const err = await thrown(overrideMethod(form(`_method=${value}`)));
      expect(err).toBeInstanceOf(HttpError);
      expect(err.status).toBe(400);
      expect(err.message).toBe(`unknown _method "${value}": use PUT, PATCH or DELETE`);
    },
  );

  it("refuses a body over the limit with 413", async () => {
    const err = await thrown(
      overrideMethod(form(`_method=PUT&title=${"x".repeat(100)}`), { bodyLimit: 50 }),
    );
    expect(err.status).toBe(413);
    expect(err.message).toBe("request body is larger than the limit of 50 bytes");
  });
});
