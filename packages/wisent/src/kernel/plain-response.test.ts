import { describe, expect, it } from "vitest";
import { addPlainField, plainFieldOf, plainResponse } from "./plain-response.js";

const made = () =>
  plainResponse("<p>hi</p>", 200, {
    "content-type": "text/html; charset=UTF-8",
    "cache-control": "private, no-cache",
  });

describe("fields added to a plain response after it was made", () => {
  it("are read back as the plain value and, once someone reads the headers, there too", () => {
    const res = made();
    expect(addPlainField(res, "set-cookie", "a=1; Path=/")).toBe(true);
    expect(addPlainField(res, "set-cookie", "b=2; Path=/")).toBe(true);
    expect(addPlainField(res, "cache-control", "no-store", true)).toBe(true);
    expect(plainFieldOf(res, "cache-control")).toEqual({ value: "no-store" });
    expect(plainFieldOf(res, "set-cookie")).toEqual({ value: "a=1; Path=/, b=2; Path=/" });
    expect(plainFieldOf(res, "x-none")).toEqual({ value: undefined });
    // Reading the headers makes them the truth: the added fields are in them, once each.
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.getSetCookie()).toHaveLength(2);
  });

  it("are refused once the headers were read, and by any other response", () => {
    const res = made();
    void res.headers;
    expect(addPlainField(res, "set-cookie", "a=1")).toBe(false);
    expect(plainFieldOf(res, "cache-control")).toBeUndefined();
    expect(addPlainField(new Response("x"), "set-cookie", "a=1")).toBe(false);
  });
});
