import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import { isHttpError } from "../http/http-error.js";
import { redisStore } from "../middleware/rate-limit/redis-store.js";
import { SignInLimits } from "./sign-in-limits.js";

// Outside a Node server there is no socket: every request's address is "unknown".
const request = {} as Context;

async function status(limits: SignInLimits, email: string): Promise<number | string> {
  try {
    await limits.check(request, email);
    return "allowed";
  } catch (error) {
    if (!isHttpError(error)) throw error;
    expect(Number(error.headers["retry-after"])).toBeGreaterThan(0);
    return error.status;
  }
}

describe("SignInLimits", () => {
  it("allows 10 attempts per email in 3 minutes, refusing the 11th with 429", async () => {
    const limits = new SignInLimits({ name: "sign-in" });
    const results = [];
    for (let i = 0; i < 11; i++) {
      results.push(await status(limits, "Ada@Example.com"));
      // A new address each time would not help: the email's own count runs out.
      await limits.reset({ address: "unknown" });
    }
    expect(results).toEqual([...Array(10).fill("allowed"), 429]);
    // The email's count is its own: another account is still allowed, as case-insensitively the same one is not.
    expect(await status(limits, "grace@example.com")).toBe("allowed");
    expect(await status(limits, " ADA@example.com ")).toBe(429);
  });

  it("limits one address across emails", async () => {
    const limits = new SignInLimits({ name: "sign-in", limit: 3 });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await status(limits, `user${i}@example.com`));
    expect(results).toEqual(["allowed", "allowed", "allowed", 429]);
  });

  describe("with Redis (127.0.0.1:6379)", () => {
    const store = redisStore({ prefix: `wisent-test:${randomUUID()}:` });
    afterAll(() => store.close());

    it("shares counts between two workers' limiters", async () => {
      const a = new SignInLimits({ name: "sign-in", store });
      const b = new SignInLimits({ name: "sign-in", store });
      const results = [];
      for (let i = 0; i < 11; i++) {
        results.push(await status(i % 2 === 0 ? a : b, "ada@example.com"));
        await a.reset({ address: "unknown" });
      }
      expect(results).toEqual([...Array(10).fill("allowed"), 429]);
    });
  });
});
