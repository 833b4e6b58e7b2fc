import type { Context } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { paramLogger } from "../middleware/param-logger/index.js";
import { bodyParamsOf } from "./body.js";
import { devLogger, devRequestLines } from "./dev-logger.js";
import { defaultLogger, jsonLinesOf } from "./logger.js";

const sink = () => {
  const writes: string[] = [];
  return { writes, write: (line: string) => writes.push(line) };
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is checked
const ANSI = /\u001b\[/;

function shop(color: boolean) {
  const out = sink();
  const err = sink();
  const app = new App({ name: "shop", env: "development" });
  app.use(paramLogger({ logger: devLogger(out, err, color) }));
  const WidgetsShow = (c: Context) => c.text(`widget ${c.req.param("widget_id")}`);
  const WidgetsCreate = async (c: Context) => {
    await bodyParamsOf(c);
    return c.text("made", 201);
  };
  const Crash = () => {
    throw new Error("kaput");
  };
  app.get("/widgets/{widget_id}", WidgetsShow);
  app.post("/widgets", WidgetsCreate);
  app.get("/crash", Crash);
  const send = (path: string, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(`http://localhost${path}`, init)));
  return { out, err, send };
}

describe("development's request log", () => {
  it("writes one plain line a request: method, path, status, time, handler, parameters", async () => {
    const { out, send } = shop(false);
    await send("/widgets/7?sort=name");
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0]).toMatch(
      /^GET \/widgets\/7 200 OK in \d+\.\dms WidgetsShow \{"sort":"name","widget_id":"7"\}\n$/,
    );
    expect(out.writes[0]).not.toMatch(ANSI);
  });

  it("names no handler for a request no route matched, and filters the form", async () => {
    const { out, send } = shop(false);
    await send("/nope");
    expect(out.writes[0]).toMatch(/^GET \/nope 404 Not Found in \S+ \(no route\)\n$/);
    await send("/widgets", {
      method: "POST",
      body: new URLSearchParams({ name: "bolt", password: "hunter2" }),
    });
    expect(out.writes[1]).toMatch(
      /^POST \/widgets 201 Created in \S+ WidgetsCreate form \{"name":"bolt","password":"\[FILTERED\]"\}\n$/,
    );
  });

  it("writes a 500's line and the error with its trace to stderr", async () => {
    const { out, err, send } = shop(false);
    await send("/crash", { headers: { accept: "application/json" } });
    expect(out.writes).toEqual([]);
    const text = err.writes.join("");
    expect(text).toMatch(/^error: unhandled error .*error=kaput\n {4}Error: kaput\n/);
    expect(text).toMatch(/\nGET \/crash 500 Internal Server Error in \S+ Crash\n$/);
  });

  it("colours the line when asked", async () => {
    const { out, send } = shop(true);
    await send("/widgets/7");
    expect(out.writes[0]).toMatch(ANSI);
  });
});

describe("devLogger's colour by default", () => {
  const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it("follows FORCE_COLOR and NO_COLOR (and no colour off a terminal)", () => {
    const line = () => {
      const out = sink();
      // The colour argument left out: the default decides.
      const write = devRequestLines(devLogger(out, out));
      write?.({
        method: "GET",
        path: "/",
        status: 200,
        durationMs: 1,
        handler: "Home",
        params: {},
      });
      return out.writes[0] ?? "";
    };
    delete process.env.FORCE_COLOR;
    process.env.NO_COLOR = "1";
    expect(line()).not.toMatch(ANSI);
    delete process.env.NO_COLOR;
    process.env.FORCE_COLOR = "1";
    expect(line()).toMatch(ANSI);
  });
});

describe("defaultLogger", () => {
  it("is the readable logger in development and JSON lines in production and test", () => {
    expect(devRequestLines(defaultLogger("development"))).toBeDefined();
    expect(devRequestLines(defaultLogger("production"))).toBeUndefined();
    expect(jsonLinesOf(defaultLogger("production"))).toBeDefined();
    expect(devRequestLines(defaultLogger("test"))).toBeUndefined();
  });

  it("writes development's request lines of one event-loop turn in one write", async () => {
    const writes: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      writes.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      const lines = devRequestLines(defaultLogger("development"))!;
      const line = {
        method: "GET",
        path: "/a",
        status: 200,
        durationMs: 1,
        handler: "A",
        params: {},
      };
      lines(line);
      lines({ ...line, path: "/b" });
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.stdout.write = write;
    }
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/\/a[\s\S]*\n[\s\S]*\/b/);
  });
});
