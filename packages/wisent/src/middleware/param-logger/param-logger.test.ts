import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { installAllContextMethods } from "../../app/test-support/context-methods.js";
import "../../http/bind.js";
import { jsonLinesOf, jsonLogger, type LogEntry, type Logger } from "../../http/logger.js";
import { filterParams } from "./filter-params.js";
import { paramLogger } from "./param-logger.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

function capture() {
  const entries: { level: string; entry: LogEntry }[] = [];
  const logger: Logger = {
    info: (entry) => entries.push({ level: "info", entry }),
    warn: (entry) => entries.push({ level: "warn", entry }),
    error: (entry) => entries.push({ level: "error", entry }),
  };
  return { entries, logger };
}

describe("filterParams", () => {
  it.each([
    ["password", { password: "x", name: "a" }, { password: "[FILTERED]", name: "a" }],
    [
      "case and separators",
      { Password_Confirmation: "x", apiToken: "y" },
      { Password_Confirmation: "[FILTERED]", apiToken: "[FILTERED]" },
    ],
    [
      "nested keys",
      { user: { secret_answer: "x", cards: [{ credit_card: "4111", cvc: "1" }] } },
      {
        user: {
          secret_answer: "[FILTERED]",
          cards: [{ credit_card: "[FILTERED]", cvc: "[FILTERED]" }],
        },
      },
    ],
    [
      "bracketed form keys",
      { "user[password]": "x", authenticity_token: "t" },
      { "user[password]": "[FILTERED]", authenticity_token: "[FILTERED]" },
    ],
    ["harmless keys", { title: "t", page: "2" }, { title: "t", page: "2" }],
  ])("%s", (_name, input, expected) => {
    expect(filterParams(input)).toEqual(expected);
  });

  it("filters the same however many distinct keys came before (its memory is bounded)", () => {
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`field_${i}`, "v"]));
    filterParams(many);
    expect(filterParams({ field_2999: "v", new_password: "x", NEW_TOKEN_2: "y" })).toEqual({
      field_2999: "v",
      new_password: "[FILTERED]",
      NEW_TOKEN_2: "[FILTERED]",
    });
    expect(filterParams({ apiToken: "y" }, ["secret"])).toEqual({ apiToken: "y" });
  });
});

describe("paramLogger", () => {
  it("logs one line per request with method, path, status, duration, id and filtered params", async () => {
    const { entries, logger } = capture();
    const app = new Hono();
    app.use(paramLogger({ logger }));
    app.post("/widgets/:widget_id", async (c) => {
      await c.bind();
      return c.text("ok", 201);
    });
    const res = await app.request("/widgets/7?page=2&token=abc", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-request-id": "abc-123" },
      body: "title=t&password=hunter2",
    });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
    expect(entries).toHaveLength(1);
    const { level, entry } = entries[0]!;
    expect(level).toBe("info");
    expect(entry).toMatchObject({
      msg: "POST /widgets/7 201",
      request_id: "abc-123",
      method: "POST",
      path: "/widgets/7",
      status: 201,
      params: { page: "2", token: "[FILTERED]", widget_id: "7" },
      form: { title: "t", password: "[FILTERED]" },
    });
    expect(typeof entry.duration_ms).toBe("number");
    expect(JSON.stringify(entry)).not.toContain("hunter2");
  });

  it("makes a request id when the incoming one is missing or not sane", async () => {
    const { entries, logger } = capture();
    const app = new Hono();
    app.use(paramLogger({ logger }));
    app.get("/", (c) => c.text(c.get("requestId") ?? ""));
    const res = await app.request("/", { headers: { "x-request-id": "bad id with spaces\u0001" } });
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.text()).toBe(id);
    expect(entries[0]!.entry.request_id).toBe(id);
  });

  it("logs server errors at error level and does not read unread bodies", async () => {
    const { entries, logger } = capture();
    const app = new Hono();
    app.use(paramLogger({ logger, filter: ["title"] }));
    app.post("/", (c) => c.text("no", 503));
    await app.request("/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"title":"x"}',
    });
    expect(entries[0]!.level).toBe("error");
    expect(entries[0]!.entry.form).toBeUndefined();
  });

  it("stays quiet by default in the test environment", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const app = new Hono();
    app.use(paramLogger());
    app.get("/", (c) => c.text("ok"));
    await app.request("/");
    expect(write.mock.calls.some(([line]) => String(line).includes('"msg":"GET / 200"'))).toBe(
      false,
    );
    write.mockRestore();
  });
});

describe("filterParams on hostile nesting", () => {
  it("stops copying below 32 levels, so a 100,000-level body cannot overflow the stack", () => {
    let deep: unknown = { password: "hunter2" };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    let list: unknown = 1;
    for (let i = 0; i < 100_000; i++) list = [list];
    const filtered = filterParams({ deep, list }) as Record<string, unknown>;
    const text = JSON.stringify(filtered);
    expect(text).toContain('"[TOO DEEP]"');
    expect(text).not.toContain("hunter2");
    let level = filtered.deep as Record<string, unknown>;
    let depth = 1;
    while (typeof level.a === "object") {
      level = level.a as Record<string, unknown>;
      depth++;
    }
    expect(level.a).toBe("[TOO DEEP]");
    expect(depth).toBe(32);
  });

  it("keeps shallow values as they are", () => {
    expect(filterParams({ a: { b: [1, { c: "x" }] } })).toEqual({ a: { b: [1, { c: "x" }] } });
  });
});

describe("paramLogger with a jsonLogger", () => {
  type Sent = { out: string[]; err: string[] };
  const sinks = (): Sent & { logger: Logger } => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      logger: jsonLogger({ write: (line) => out.push(line) }, { write: (line) => err.push(line) }),
    };
  };

  function app(logger: Logger) {
    const app = new Hono();
    app.use(paramLogger({ logger, filter: ["Private-Note"] }));
    app.get("/widgets/:widget_id", (c) => c.text("ok"));
    app.get("/", (c) => c.text("ok"));
    app.get("/fails", (c) => c.text("down", 500));
    app.get("/overloaded", (c) => c.text("busy", 503));
    app.get("/odd-id", (c) => {
      // What a header may carry (no control characters or code points above U+00FF).
      c.set("requestId", 'an "odd" \\ id \u00e9');
      return c.text("ok");
    });
    app.get("/numeric-id", (c) => {
      c.set("requestId", 42 as unknown as string);
      return c.text("ok");
    });
    app.on("PURGE", "/widgets/:widget_id", (c) => c.body(null, 204));
    app.post("/widgets/:widget_id/notes/:note_id", async (c) => {
      try {
        await c.bind();
      } catch {
        return c.text("bad", 400);
      }
      return c.text("made", 201);
    });
    return app;
  }

  const json = { "content-type": "application/json" };
  const form = { "content-type": "application/x-www-form-urlencoded" };
  // Paths, queries, bodies, methods, statuses and ids a line must carry exactly.
  const REQUESTS: [string, string, RequestInit?][] = [
    ["a path parameter", "/widgets/7"],
    ["query and path, filtered", "/widgets/7?page=2&token=abc&Private_Note=x"],
    [
      "escapes in the path and its parameter",
      "/widgets/%22a%5Cb%0A%09%E2%80%A8%F0%9F%A6%80%C3%A9%ED%A0%80%25?x=1",
    ],
    ["raw quotes and backslashes in the path", '/widgets/a"b\\c'],
    [
      "hostile query keys and values",
      "/?b=1&2=x&1=y&a=1&a=2&a=3&__proto__=p&%22k%22=%5C&=empty&password=x&user%5Bpassword%5D=y&u=%F0%9F%A6%80&s=%ED%A0%80&c=%00%1F%7F&long=" +
        "x".repeat(5000),
    ],
    [
      "a JSON body",
      "/widgets/7/notes/9?draft=1",
      {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          title: 'say "hi"\\',
          password: "hunter2",
          nested: { secret_answer: "x", list: [[1, [0.1, 1e21, -0]], null, true, "\u2028"] },
          unicode: "caf\u00e9 \ud83e\udd80",
        }),
      },
    ],
    [
      "a JSON body with a __proto__ member",
      "/widgets/7/notes/9",
      {
        method: "POST",
        headers: json,
        body: '{"__proto__":{"a":1},"b":"2"}',
      },
    ],
    ["an empty JSON body", "/widgets/7/notes/9", { method: "POST", headers: json, body: "{}" }],
    ["a malformed JSON body", "/widgets/7/notes/9", { method: "POST", headers: json, body: "{" }],
    [
      "an urlencoded body",
      "/widgets/7/notes/9",
      {
        method: "POST",
        headers: form,
        body: "title=t&password=x&tags=a&tags=b&note=%22%0A",
      },
    ],
    ["a server error", "/fails"],
    ["another server error", "/overloaded"],
    ["no route", "/nowhere/%22"],
    ["an odd request id set by the handler", "/odd-id"],
    ["an incoming request id", "/", { headers: { "x-request-id": "abc-123:x@y/z+=." } }],
    ["a request id that is not a string", "/numeric-id"],
    ["another method", "/widgets/7", { method: "PURGE" }],
  ];

  // The clocks both runs read: the same wall time, and durations of every kind.
  const DURATIONS = [0.1, 0.0004, 12.345_678_9, 0, 1e21, 1_234_567.891_2, Number.NaN];
  function stopClocks() {
    vi.spyOn(Date, "now").mockReturnValue(Date.UTC(2026, 10, 23, 6, 52, 0, 7));
    let calls = 0;
    vi.spyOn(performance, "now").mockImplementation(() => {
      const n = calls++;
      // Even calls start a request, odd ones end it.
      return n % 2 === 0 ? 1000 : 1000 + DURATIONS[(n >> 1) % DURATIONS.length]!;
    });
  }

  async function send(logger: Logger) {
    stopClocks();
    try {
      const server = app(logger);
      for (const [i, [, path, init]] of REQUESTS.entries()) {
        // A made id would differ between the two runs: each request brings its own.
        const headers = { "x-request-id": `request-${i}`, ...(init?.headers as object) };
        await (await server.request(path, { ...init, headers })).arrayBuffer();
      }
    } finally {
      vi.restoreAllMocks();
    }
  }

  it("writes exactly the line jsonLogger makes of the entry, for every kind of request", async () => {
    const fast = sinks();
    expect(jsonLinesOf(fast.logger)).toBeDefined();
    await send(fast.logger);
    // The same jsonLogger methods without the way to its sinks: the entry goes through `line`.
    const slow = sinks();
    const entryLogger: Logger = { ...slow.logger };
    expect(jsonLinesOf(entryLogger)).toBeUndefined();
    await send(entryLogger);

    expect(fast.out).toHaveLength(REQUESTS.length - 2);
    expect(fast.err).toHaveLength(2);
    expect(fast.out).toEqual(slow.out);
    expect(fast.err).toEqual(slow.err);
    for (const line of [...fast.out, ...fast.err]) {
      expect(line.endsWith("}\n")).toBe(true);
      expect(Object.keys(JSON.parse(line)).slice(0, 2)).toEqual(["time", "level"]);
    }
    const lines = fast.out.map((line) => JSON.parse(line));
    expect(lines[1]).toMatchObject({
      level: "info",
      msg: "GET /widgets/7 200",
      params: { page: "2", token: "[FILTERED]", Private_Note: "[FILTERED]", widget_id: "7" },
    });
    expect(lines[5].form).toMatchObject({ password: "[FILTERED]", title: 'say "hi"\\' });
    expect(JSON.parse(fast.err[0]!)).toMatchObject({ level: "error", status: 500 });
    expect(fast.out.join("")).not.toContain("hunter2");
  });

  it("writes through a jsonLogger's own sinks only while its methods are its own", async () => {
    const { out, logger } = sinks();
    const seen: LogEntry[] = [];
    const own = logger.info;
    logger.info = (entry) => {
      seen.push(entry);
      own(entry);
    };
    const server = app(logger);
    await server.request("/widgets/7");
    expect(seen).toHaveLength(1);
    expect(out).toHaveLength(1);
  });
});
