import { describe, expect, it } from "vitest";
import { PasswordResetTokens } from "./reset-token.js";

const user = { id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", password_digest: "$scrypt$one" };

function clock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("PasswordResetTokens", () => {
  it("verifies a fresh token for its user", () => {
    const tokens = new PasswordResetTokens({ secret: "s".repeat(32), now: clock().now });
    const token = tokens.issue(user);
    expect(tokens.userId(token)).toBe(user.id);
    expect(tokens.verify(token, user)).toBe(true);
  });

  it("stops working after 15 minutes", () => {
    const time = clock();
    const tokens = new PasswordResetTokens({ secret: "s".repeat(32), now: time.now });
    const token = tokens.issue(user);
    time.advance(15 * 60 * 1000 - 1000);
    expect(tokens.verify(token, user)).toBe(true);
    time.advance(1000);
    expect(tokens.userId(token)).toBeUndefined();
    expect(tokens.verify(token, user)).toBe(false);
  });

  it("is single-use: a changed password hash invalidates it", () => {
    const tokens = new PasswordResetTokens({ secret: "s".repeat(32), now: clock().now });
    const token = tokens.issue(user);
    expect(tokens.verify(token, { ...user, password_digest: "$scrypt$two" })).toBe(false);
  });

  it.each([
    ["another user", (t: string) => t, { ...user, id: "someone-else" }],
    ["a changed expiry", (t: string) => t.replace(/\.([0-9a-z]+)\./, ".zzzzzz."), user],
    ["a changed mac", (t: string) => `${t.slice(0, -2)}AA`, user],
    ["garbage", () => "not a token", user],
  ])("refuses %s", (_name, tamper, who) => {
    const tokens = new PasswordResetTokens({ secret: "s".repeat(32), now: clock().now });
    expect(tokens.verify(tamper(tokens.issue(user)), who)).toBe(false);
  });

  it("refuses a token signed with another secret", () => {
    const time = clock();
    const a = new PasswordResetTokens({ secret: "a".repeat(32), now: time.now });
    const b = new PasswordResetTokens({ secret: "b".repeat(32), now: time.now });
    expect(b.verify(a.issue(user), user)).toBe(false);
  });
});
