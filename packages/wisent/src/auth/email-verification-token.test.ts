import { describe, expect, it } from "vitest";
import { EmailVerificationTokens } from "./email-verification-token.js";
import { PasswordResetTokens } from "./reset-token.js";

const user = {
  id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
  email: "ada@example.com",
  password_digest: "$scrypt$one",
};
const secret = "s".repeat(32);

function clock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("EmailVerificationTokens", () => {
  it("verifies the account's email with a fresh token", () => {
    const tokens = new EmailVerificationTokens({ secret, now: clock().now });
    const token = tokens.issue(user);
    expect(tokens.userId(token)).toBe(user.id);
    expect(tokens.verify(token, user, user.email)).toBe(true);
    expect(tokens.verify(token, user, "eve@example.com")).toBe(false);
  });

  it("verifies a new address only, and only while the account's email is unchanged", () => {
    const tokens = new EmailVerificationTokens({ secret, now: clock().now });
    const token = tokens.issue(user, "ada@new.example");
    expect(tokens.verify(token, user, "ada@new.example")).toBe(true);
    expect(tokens.verify(token, user, user.email)).toBe(false);
    const changed = { ...user, email: "ada@new.example" };
    expect(tokens.verify(token, changed, "ada@new.example")).toBe(false);
    expect(tokens.verify(tokens.issue(user), changed, user.email)).toBe(false);
  });

  it("stops working after 24 hours", () => {
    const time = clock();
    const tokens = new EmailVerificationTokens({ secret, now: time.now });
    const token = tokens.issue(user);
    time.advance(24 * 3600 * 1000 - 1000);
    expect(tokens.verify(token, user, user.email)).toBe(true);
    time.advance(1000);
    expect(tokens.userId(token)).toBeUndefined();
    expect(tokens.verify(token, user, user.email)).toBe(false);
  });

  it("is worth nothing as a password reset token, and the other way round", () => {
    const time = clock();
    // A user whose password hash happens to read as "email\0email" cannot turn one into the other.
    const odd = { ...user, password_digest: `${user.email}\0${user.email}` };
    const verification = new EmailVerificationTokens({ secret, now: time.now });
    const reset = new PasswordResetTokens({ secret, now: time.now });
    expect(reset.verify(verification.issue(odd), odd)).toBe(false);
    expect(verification.verify(reset.issue(odd), odd, odd.email)).toBe(false);
  });

  it.each([
    ["another user", (t: string) => t, { ...user, id: "someone-else" }],
    ["a changed expiry", (t: string) => t.replace(/\.([0-9a-z]+)\./, ".zzzzzz."), user],
    ["a changed mac", (t: string) => `${t.slice(0, -2)}AA`, user],
    ["garbage", () => "not a token", user],
  ])("refuses %s", (_name, tamper, who) => {
    const tokens = new EmailVerificationTokens({ secret, now: clock().now });
    expect(tokens.verify(tamper(tokens.issue(user)), who, who.email)).toBe(false);
  });

  it("refuses a token signed with another secret", () => {
    const time = clock();
    const a = new EmailVerificationTokens({ secret: "a".repeat(32), now: time.now });
    const b = new EmailVerificationTokens({ secret: "b".repeat(32), now: time.now });
    expect(b.verify(a.issue(user), user, user.email)).toBe(false);
  });
});
