import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import type { WisentRuntime } from "../../app/runtime.js";
import { sharedLogger } from "../../http/logger.js";
import { session } from "./session.js";
import { sealSession, unsealSession } from "./session-codec.js";
import { resolveSessionPasswords } from "./session-secrets.js";

const SECRET = "s".repeat(32);
const OLD = "o".repeat(32);

function counterApp(options: Parameters<typeof session>[0] = { secret: SECRET }) {
  const app = new Hono();
  app.use("*", async (c, next) => {
    c.set("wisent", { name: "MyShop", env: "test", api: false } as WisentRuntime);
    await next();
  });
  app.use(session(options));
  app.get("/count", (c) => {
    const n = (c.get("session").get<number>("n") ?? 0) + 1;
    c.get("session").set("n", n);
    return c.text(String(n));
  });
  app.get("/read", (c) => c.text(String(c.get("session").get("n") ?? "none")));
  return app;
}

function cookieOf(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  return header.split(";")[0]!;
}

describe("session", () => {
  it("writes a sealed cookie _<app>_session with the right attributes, and reads it back", async () => {
    const app = counterApp();
    const first = await app.request("/count");
    const header = first.headers.get("set-cookie")!;
    expect(header).toMatch(/^_my_shop_session=Fe26\.2\*/);
    // A browser-session cookie by default, as Rails': no Max-Age, no Expires.
    expect(header).not.toMatch(/Max-Age|Expires/i);
    expect(header).toContain("Path=/");
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).not.toContain("Secure");
    expect(header).not.toContain('"n"');
    const second = await app.request("/count", { headers: { cookie: cookieOf(first) } });
    expect(await second.text()).toBe("2");
  });

  it("writes no cookie when nothing changed", async () => {
    const res = await counterApp().request("/read");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("opens a returning browser's cookie without parsing it when nothing reads the session", async () => {
    const app = counterApp();
    app.get("/nothing", (c) => c.text("nothing"));
    const cookie = cookieOf(await app.request("/count"));
    await app.request("/read", { headers: { cookie } }); // opened once, now remembered
    const parse = vi.spyOn(JSON, "parse");
    try {
      const res = await app.request("/nothing", { headers: { cookie } });
      expect([await res.text(), res.headers.get("set-cookie")]).toEqual(["nothing", null]);
      expect(parse).not.toHaveBeenCalled();
      expect(await (await app.request("/read", { headers: { cookie } })).text()).toBe("1");
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("is Secure in production", async () => {
    const res = await counterApp({ secret: SECRET, env: "production" }).request("/count");
    expect(res.headers.get("set-cookie")).toContain("Secure");
  });

  it.each([
    ["garbage", "_my_shop_session=garbage"],
    ["a flipped character", "TAMPER"],
    ["another secret's cookie", "OTHER"],
    ["an empty value", "_my_shop_session="],
  ])("treats %s as a fresh session, never a 500", async (_name, cookie) => {
    const app = counterApp();
    let header = cookie;
    if (cookie === "TAMPER") {
      const good = cookieOf(await app.request("/count"));
      const at = good.length - 10;
      header = good.slice(0, at) + (good[at] === "A" ? "B" : "A") + good.slice(at + 1);
    }
    if (cookie === "OTHER")
      header = cookieOf(await counterApp({ secret: "x".repeat(32) }).request("/count"));
    const res = await app.request("/count", { headers: { cookie: header } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("1");
  });

  it("rotates secrets: cookies sealed with an old secret still open, new ones use the new secret", async () => {
    const old = await counterApp({ secret: OLD }).request("/count");
    const rotated = counterApp({ secret: `${SECRET},${OLD}` });
    const res = await rotated.request("/count", { headers: { cookie: cookieOf(old) } });
    expect(await res.text()).toBe("2");
    const onlyNew = counterApp({ secret: SECRET });
    const again = await onlyNew.request("/read", { headers: { cookie: cookieOf(res) } });
    expect(await again.text()).toBe("2");
    const viaOption = counterApp({ secret: SECRET, oldSecrets: [OLD] });
    expect(
      await (await viaOption.request("/read", { headers: { cookie: cookieOf(old) } })).text(),
    ).toBe("1");
  });

  it("refuses to start in production without SESSION_SECRET, naming it", () => {
    const saved = process.env.SESSION_SECRET;
    delete process.env.SESSION_SECRET;
    try {
      expect(() => session({ env: "production" })).toThrow(/^SESSION_SECRET is not set/);
      expect(() => session({ env: "test" })).not.toThrow();
    } finally {
      if (saved !== undefined) process.env.SESSION_SECRET = saved;
    }
  });

  it("refuses secrets shorter than 32 characters", () => {
    expect(() => session({ secret: "short" })).toThrow(/at least 32 characters/);
  });

  it("keeps a lifetime when asked for one", async () => {
    const res = await counterApp({ secret: SECRET, maxAge: 3600 }).request("/count");
    expect(res.headers.get("set-cookie")).toContain("Max-Age=3600");
  });

  it("refuses every environment but development and test without a secret, saying how to make one", () => {
    const saved = process.env.SESSION_SECRET;
    delete process.env.SESSION_SECRET;
    try {
      for (const env of ["production", "staging", "prod", "Production", "Test", "ci"]) {
        expect(() => session({ env }), env).toThrow(
          new RegExp(
            `SESSION_SECRET is not set: the ${env} environment .*npx wisent secret.*openssl rand -hex 32`,
          ),
        );
      }
      expect(() => session({ env: "test" })).not.toThrow();
    } finally {
      if (saved !== undefined) process.env.SESSION_SECRET = saved;
    }
  });

  it("gives development a random secret, made once per checkout in a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-secret-"));
    const file = join(dir, "tmp", "local_secret.txt");
    const a = resolveSessionPasswords({
      env: "development",
      secret: [],
      developmentSecretFile: file,
    });
    const b = resolveSessionPasswords({
      env: "development",
      secret: [],
      developmentSecretFile: file,
    });
    const other = resolveSessionPasswords({
      env: "development",
      secret: [],
      developmentSecretFile: join(dir, "other.txt"),
    });
    expect(a).toEqual(b);
    expect(readFileSync(file, "utf8").trim()).toBe(a[0]!.secret);
    expect(a[0]!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(a[0]!.secret).not.toBe(other[0]!.secret);
    // No longer the secret anyone could compute from the app's name (issue 22).
    const guessable = createHash("sha256")
      .update("wisent development session secret for shop")
      .digest("hex");
    expect(a[0]!.secret).not.toBe(guessable);
    const sealed = await sealSession({ x: 1 }, a, 60);
    expect(await unsealSession(sealed, b)).toEqual({ x: 1 });
    expect(await unsealSession(sealed, other)).toBeUndefined();
  });

  it("gives the test environment a random secret per run", () => {
    const [password] = resolveSessionPasswords({ env: "test", secret: [] });
    const guessable = createHash("sha256")
      .update("wisent development session secret for MyShop")
      .digest("hex");
    expect(password!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(password!.secret).not.toBe(guessable);
    expect(resolveSessionPasswords({ env: "test", secret: [] })).toEqual([password]);
  });

  it("renews: a fresh id and CSRF secret, chosen keys and the flash kept, a new cookie", async () => {
    const app = counterApp();
    app.get("/login", (c) => {
      const s = c.get("session");
      s.set("authenticity_token", "old-csrf-secret");
      s.set("locale", "de");
      s.set("cart", [1]);
      s.set("_flash", { success: ["hi"] });
      const before = s.id;
      s.renew(["locale"]);
      return c.json({ before, after: s.id, data: s.toJSON() });
    });
    const body = (await (await app.request("/login")).json()) as {
      before: string;
      after: string;
      data: Record<string, unknown>;
    };
    expect(body.after).not.toBe(body.before);
    expect(body.data).toEqual({ locale: "de", _flash: { success: ["hi"] }, _id: body.after });
  });

  it("drops its flash messages, with a log line, when that is what it takes to fit", async () => {
    const warn = vi.spyOn(sharedLogger(), "warn").mockImplementation(() => {});
    try {
      const app = counterApp();
      app.get("/crowded", (c) => {
        c.get("session").set("kept", "k".repeat(1500));
        c.get("session").set("_flash", { success: ["m".repeat(2500)] });
        return c.text("ok");
      });
      const res = await app.request("/crowded");
      expect(res.status).toBe(200);
      const cookie = cookieOf(res);
      const sealed = cookie.slice(cookie.indexOf("=") + 1);
      const data = await unsealSession(sealed, resolveSessionPasswords({ secret: SECRET }));
      expect(data).toEqual({ kept: "k".repeat(1500) });
      expect(warn.mock.calls.map(([entry]) => entry.msg).join("\n")).toMatch(
        /session cookie _my_shop_session would be \d+ bytes, over the browser limit of 4096: its flash messages were dropped/,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("says the real limit of a cookie too large, counting name, value and attributes", async () => {
    const app = counterApp();
    app.get("/big", (c) => {
      c.get("session").set("big", "x".repeat(5000));
      return c.text("ok");
    });
    app.onError((error, c) => c.text(error.message, 500));
    const res = await app.request("/big");
    expect(res.status).toBe(500);
    const message = await res.text();
    const bytes = Number(/would be (\d+) bytes \(name, value and attributes\)/.exec(message)?.[1]);
    expect(message).toContain("over the browser limit of 4096");
    // The count is the cookie's: `_my_shop_session=<value>; Path=/; HttpOnly; SameSite=Lax`.
    expect(bytes).toBeGreaterThan(4096);
    expect(bytes % 1).toBe(0);
  });
});
