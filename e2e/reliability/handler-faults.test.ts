// A handler that throws after writing, and ones that return something other than a Response:
// one 500 each, the server keeps serving, and that request's transaction is rolled back.
import { describe, expect, it } from "vitest";
import { logLines } from "../support/server.js";
import { report } from "./support/figures.js";
import { send, sendJson } from "./support/http.js";
import { useShopOnSqlite } from "./support/shop.js";

describe("handler faults", () => {
  const shop = useShopOnSqlite({ faults: true });

  it.each([
    ["throws after writing", "/faults/throw"],
    ["returns a plain object after writing", "/faults/unexpected"],
    ["returns nothing after writing", "/faults/nothing"],
  ])(
    "a handler that %s answers 500 once, rolls back and the server keeps serving",
    async (_, path) => {
      const title = `fault ${path}`;
      const json = await sendJson(shop.server.url, "POST", path, { title });
      expect(json.status).toBe(500);
      expect(JSON.parse(json.body)).toEqual({ error: "Internal Server Error", code: 500 });
      const html = await send(shop.server.url, path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/html" },
        body: JSON.stringify({ title }),
      });
      expect(html.status).toBe(500);
      expect(html.body).toContain("<h1>500 Internal Server Error</h1>");
      expect(html.body).not.toContain("fault:");

      const after = await sendJson(shop.server.url, "POST", "/widgets", { title: `after ${path}` });
      expect(after.status).toBe(201);
      const titles = (await shop.db.rows("widgets")).map((r) => r.title);
      expect(titles).not.toContain(title);
      expect(titles).toContain(`after ${path}`);
      const errors = logLines(shop.server).filter(
        (l) => l.msg === "unhandled error" && l.path === path,
      );
      expect(errors).toHaveLength(2);
      report(`handler fault: ${path}`, {
        answers: [json.status, html.status],
        rows_left_by_fault: titles.filter((t) => t === title).length,
        next_request: after.status,
        logged: errors[0]?.error,
      });
    },
  );

  it("keeps one process alive through all of them (same pid, still answering)", async () => {
    expect(shop.server.child.exitCode).toBeNull();
    expect((await sendJson(shop.server.url, "GET", "/widgets")).status).toBe(200);
  });
});
