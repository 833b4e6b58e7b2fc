import { describe, expect, it } from "vitest";
import { App } from "./app.js";

// The Node adapter hands the App requests with methods the Fetch API's Request constructor
// refuses (TRACE, TRACK); a request here is such an object, as the adapter makes it.
function nodeLikeRequest(method: string, url: string): Request {
  return { method, url, headers: new Headers({ accept: "application/json" }) } as Request;
}

describe("methods a Fetch Request cannot carry", () => {
  const app = new App({ name: "t", env: "test", api: true });
  app.get("/widgets", (c) => c.json([]));

  it.each([
    ["TRACE", "http://localhost/widgets", 405],
    ["TRACE", "http://localhost/widgets.json", 404],
    ["TRACE", "http://localhost/widgets.xml?page=2", 404],
    ["TRACK", "http://localhost/../package.json", 404],
  ])("%s %s answers %i, not a 500", async (method, url, status) => {
    const res = await app.fetch(nodeLikeRequest(method, url));
    expect(res.status).toBe(status);
  });
});
