import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import "../../http/bind.js";
import type { LogEntry, Logger } from "../../http/logger.js";
import { filterParams } from "./filter-params.js";
import { paramLogger } from "./param-logger.js";

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
