/**
 * What production's request lines never show, through an App: the token of a password reset
 * link in the path (a path parameter the filter covers: its segment, in `msg` and `path`, also
 * in an error's line), and the temporary file an upload was written to.
 */
import { describe, expect, it } from "vitest";
import { App } from "../../app/app.js";
import "../../http/bind.js";
import type { LineSink } from "../../http/log-types.js";
import { jsonLogger } from "../../http/logger.js";
import { PNG } from "../../storage/test-support/sample-files.js";
import { temporaryUploadFolder } from "../../storage/upload-scope.js";
import { paramLogger } from "./param-logger.js";

const TOKEN = "MDE5MGY1YTItN2IxYy03Y2RlLThmMDA.mabc123.c2lnbmF0dXJlLW9mLXRoZS1yZXNldC10b2tlbg";

/** An app logging JSON lines (production's) into `lines`, or entries through a plain logger. */
function app(lines: string[], options: { entries?: boolean; filter?: string[] } = {}): App {
  const sink: LineSink = { write: (text: string) => lines.push(text) > 0 };
  const json = jsonLogger(sink, sink);
  const logger = options.entries
    ? {
        info: (entry: object) => lines.push(JSON.stringify(entry)),
        warn: (entry: object) => lines.push(JSON.stringify(entry)),
        error: (entry: object) => lines.push(JSON.stringify(entry)),
      }
    : json;
  const made = new App({ name: "shop", env: "production" });
  made.use(paramLogger({ logger, ...(options.filter && { filter: options.filter }) }));
  made.get("/passwords/{password_id}/edit", (c) => c.text("the form"));
  made.get("/passwords/{password_id}/fail", () => {
    throw new Error("boom");
  });
  made.get("/invites/{code}", (c) => c.text("welcome"));
  made.post("/photos", async (c) => c.json(await c.bind(), 201));
  return made;
}

describe("request lines in production", () => {
  it.each([
    ["JSON lines", false],
    ["a logger's entries", true],
  ])("filter a secret path parameter's segment from the path and msg (%s)", async (_, entries) => {
    const lines: string[] = [];
    const res = await app(lines, { entries }).fetch(
      new Request(`http://localhost/passwords/${TOKEN}/edit?x=1`),
    );
    expect(res.status).toBe(200);
    const text = lines.join("");
    expect(text).not.toContain(TOKEN);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      msg: "GET /passwords/[FILTERED]/edit 200",
      path: "/passwords/[FILTERED]/edit",
      params: { x: "1", password_id: "[FILTERED]" },
    });
  });

  it("filters it from an error's line too, and an encoded or suffixed segment alike", async () => {
    const lines: string[] = [];
    const shop = app(lines);
    const failed = await shop.fetch(new Request(`http://localhost/passwords/${TOKEN}/fail`));
    expect(failed.status).toBe(500);
    const error = lines.map((line) => JSON.parse(line)).find((l) => l.msg === "unhandled error");
    expect(error).toMatchObject({ path: "/passwords/[FILTERED]/fail" });
    const encoded = TOKEN.replace(".", "%2E");
    await shop.fetch(new Request(`http://localhost/passwords/${encoded}/edit.json`));
    expect(lines.join("")).not.toContain(TOKEN);
    expect(lines.join("")).not.toContain(encoded);
  });

  it("filters the parameters an app declares secret, and no other segment", async () => {
    const lines: string[] = [];
    await app(lines, { filter: ["code"] }).fetch(new Request("http://localhost/invites/s3cr3t"));
    expect(JSON.parse(lines[0]!)).toMatchObject({ path: "/invites/[FILTERED]" });
    const plain: string[] = [];
    await app(plain).fetch(new Request("http://localhost/invites/s3cr3t"));
    expect(JSON.parse(plain[0]!)).toMatchObject({ path: "/invites/s3cr3t" });
  });

  it.each([
    ["JSON lines", false],
    ["a logger's entries", true],
  ])(
    "log an upload by its name, type and size, never its temporary file (%s)",
    async (_, entries) => {
      const lines: string[] = [];
      const body = new FormData();
      body.append("caption", "Cat");
      body.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "cat.png");
      const res = await app(lines, { entries }).fetch(
        new Request("http://localhost/photos", { method: "POST", body }),
      );
      expect(res.status).toBe(201);
      const text = lines.join("");
      // The folder uploads are written to (tmp/uploads/<pid> of the app), not only "/tmp".
      expect(text).not.toContain(temporaryUploadFolder());
      expect(JSON.parse(lines[0]!).form).toEqual({
        caption: "Cat",
        file: { name: "cat.png", type: "image/png", size: PNG.length },
      });
    },
  );
});
