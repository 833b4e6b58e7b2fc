import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import { isHttpError } from "../base/http-error.js";
import { redisStore } from "../middleware/rate-limit/redis-store.js";
import { SignInLimits } from "./sign-in-limits.js";

/** What `limits.check` (or `succeeded` after it) does for a request from `address`. */
async function attempt(
  limits: SignInLimits,
  address: string,
  email: string,
  success = false,
): Promise<number | string> {
  const app = new Hono();
  app.post("/", async (c) => {
    try {
      await limits.check(c, email);
      if (success) await limits.succeeded(c, email);
      return c.text("allowed");
    } catch (error) {
      if (!isHttpError(error)) throw error;
      expect(Number(error.headers["retry-after"])).toBeGreaterThan(0);
      return c.text(String(error.status));
    }
  });
  const res = await app.request(
    "/",
    { method: "POST" },
    { incoming: { socket: { remoteAddress: address } } },
  );
  const text = await res.text();
  return text === "allowed" ? text : Number(text);
}

describe("SignInLimits", () => {
  it("allows 10 attempts per email from one address in 3 minutes, refusing the 11th with 429", async () => {
    const limits = new SignInLimits({ name: "sign-in" });
    const results = [];
    for (let i = 0; i < 11; i++) {
      results.push(await attempt(limits, "203.0.113.1", "Ada@Example.com"));
      await limits.reset({ address: "203.0.113.1" }); // only the email's count runs out
    }
    expect(results).toEqual([...Array(10).fill("allowed"), 429]);
    // Case-insensitively the same account from the same address is refused; another is not.
    expect(await attempt(limits, "203.0.113.1", " ADA@example.com ")).toBe(429);
    expect(await attempt(limits, "203.0.113.1", "grace@example.com")).toBe("allowed");
  });

  it("never locks the owner out: guesses from one address leave another address alone", async () => {
    const limits = new SignInLimits({ name: "sign-in" });
    for (let i = 0; i < 12; i++) await attempt(limits, "203.0.113.66", "ada@example.com");
    expect(await attempt(limits, "203.0.113.66", "ada@example.com")).toBe(429);
    expect(await attempt(limits, "198.51.100.7", "ada@example.com", true)).toBe("allowed");
  });

  it("clears the email's count on success", async () => {
    const limits = new SignInLimits({ name: "sign-in", limit: 3 });
    await attempt(limits, "203.0.113.2", "ada@example.com");
    await attempt(limits, "203.0.113.2", "ada@example.com", true);
    await limits.reset({ address: "203.0.113.2" });
    expect(await attempt(limits, "203.0.113.2", "ada@example.com")).toBe("allowed");
    expect(await attempt(limits, "203.0.113.2", "ada@example.com")).toBe("allowed");
    expect(await attempt(limits, "203.0.113.2", "ada@example.com")).toBe("allowed");
    expect(await attempt(limits, "203.0.113.2", "ada@example.com")).toBe(429);
  });

  it("limits one address across emails, and only by address without byEmail", async () => {
    const limits = new SignInLimits({ name: "sign-in", limit: 3 });
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(await attempt(limits, "203.0.113.3", `u${i}@x.example`));
    expect(results).toEqual(["allowed", "allowed", "allowed", 429]);
    const reset = new SignInLimits({ name: "password-reset", limit: 2, byEmail: false });
    expect(await attempt(reset, "203.0.113.4", "ada@example.com")).toBe("allowed");
    expect(await attempt(reset, "203.0.113.4", "ada@example.com")).toBe("allowed");
    expect(await attempt(reset, "203.0.113.4", "ada@example.com")).toBe(429);
    expect(await attempt(reset, "203.0.113.5", "ada@example.com")).toBe("allowed");
  });

  it("counts an IPv6 client by its /64: 25 addresses of one /64 are one budget", async () => {
    const limits = new SignInLimits({ name: "sign-in" });
    const results = [];
    for (let i = 1; i <= 25; i++) {
      results.push(await attempt(limits, `2001:db8:5:6::${i.toString(16)}`, `u${i}@x.example`));
    }
    expect(results).toEqual([...Array(10).fill("allowed"), ...Array(15).fill(429)]);
    await limits.reset({ address: "2001:db8:5:6::ffff" }); // any address of the /64 resets it
    expect(await attempt(limits, "2001:db8:5:6::1", "ada@example.com")).toBe("allowed");
  });

  describe("with Redis (127.0.0.1:6379)", () => {
    const store = redisStore({ prefix: `wisent-test:${randomUUID()}:` });
    afterAll(() => store.close());

    it("shares counts between two workers' limiters", async () => {
      const a = new SignInLimits({ name: "sign-in", store });
      const b = new SignInLimits({ name: "sign-in", store });
      const results = [];
      for (let i = 0; i < 11; i++) {
        results.push(await attempt(i % 2 === 0 ? a : b, "203.0.113.9", "ada@example.com"));
        await a.reset({ address: "203.0.113.9" });
      }
      expect(results).toEqual([...Array(10).fill("allowed"), 429]);
    });
  });
});
