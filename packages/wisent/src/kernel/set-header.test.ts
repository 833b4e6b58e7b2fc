import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { Resource } from "../resources/resource.js";
import { phased } from "./compose.js";
import "../http/respond.js";
import { headerPart, removeHeader, setHeader, setHeaders } from "./response-headers.js";

class ThingsResource extends Resource {
  override list(c: Parameters<NonNullable<Resource["list"]>>[0]) {
    if (c.req.query("own")) {
      return new Response("own", {
        headers: {
          "x-powered-by": "me",
          "cache-control": "max-age=60",
          "content-type": "text/plain",
        },
      });
    }
    if (c.req.query("immutable")) return Response.redirect("http://localhost/things/1", 302);
    return c.respond(200, { json: [{ id: "1" }] });
  }
}

/** An app whose middleware only says setHeader: no after-step of its own sets anything. */
function app(options: { above?: boolean } = {}) {
  const a = new App({ name: "shop", api: true });
  const seenAbove: (string | null)[] = [];
  if (options.above) {
    // A plain Hono middleware above: it sees the headers once the route has answered.
    a.use(async (c, next) => {
      await next();
      seenAbove.push(c.res.headers.get("x-id"));
    });
  }
  const kept = headerPart({ "cache-control": "no-cache" }, { keep: () => true });
  a.use(
    phased({
      before: (c) => {
        setHeader(c, "X-Id", "42");
        setHeaders(c, kept);
      },
    }),
  );
  a.use(phased({ after: (c) => removeHeader(c, "X-Powered-By") }));
  a.use(phased({ after: (c) => setHeader(c, "x-late", "after") }));
  a.resource("/things", new ThingsResource());
  return { app: a, seenAbove };
}

const get = (a: App, query = "") => a.fetch(new Request(`http://localhost/things${query}`));

describe("setHeader, the one header verb of middleware", () => {
  it("hands the field to c.respond's plain answer (nobody reads its Headers)", async () => {
    const res = await get(app().app);
    expect(res.headers.get("x-id")).toBe("42");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-late")).toBe("after");
    expect(await res.json()).toEqual([{ id: "1" }]);
  });

  it("puts it on a handler's own Response once the route answered, keeping what it chose", async () => {
    const res = await get(app().app, "?own=1");
    expect(res.headers.get("x-id")).toBe("42");
    expect(res.headers.get("cache-control")).toBe("max-age=60");
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("x-late")).toBe("after");
  });

  it("copies a Response whose headers are immutable (Response.redirect)", async () => {
    const res = await get(app().app, "?immutable=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://localhost/things/1");
    expect(res.headers.get("x-id")).toBe("42");
  });

  it("puts it on an error answer, and a plain middleware above sees it", async () => {
    const { app: a, seenAbove } = app({ above: true });
    const res = await a.fetch(new Request("http://localhost/nothing-here"));
    expect(res.status).toBe(404);
    expect(res.headers.get("x-id")).toBe("42");
    await get(a, "?own=1");
    expect(seenAbove).toEqual(["42", "42"]);
  });

  it("works in a phased middleware Hono runs itself (outside an App)", async () => {
    const hono = new Hono();
    hono.use(phased({ before: (c) => setHeader(c, "x-id", "7") }));
    hono.get("/", (c) => c.text("hi"));
    const res = await hono.fetch(new Request("http://localhost/"));
    expect(res.headers.get("x-id")).toBe("7");
  });
});
