import { describe, expect, it } from "vitest";
import { isCommonPassword, weakPasswordProblem } from "./password-strength.js";

describe("weakPasswordProblem", () => {
  it.each([
    ["password1234", undefined, /too common/],
    ["Password1234", undefined, /too common/],
    ["qwerty123456", undefined, /too common/],
    ["123456789012", undefined, /too common/],
    ["ada.lovelace@example.com", "Ada.Lovelace@Example.com", /email address/],
    [" ada.lovelace@example.com ", "ada.lovelace@example.com", /email address/],
    ["ada.lovelace", "ada.lovelace@example.com", /email address/],
    // Low entropy: zxcvbn's score says so, and the message why.
    ["aaaaaaaaaaaa", undefined, /^Password is too easy to guess: it repeats one character\./],
    [" ".repeat(12), undefined, /^Password is too easy to guess: it repeats one character\./],
    ["abcdefghijkl", undefined, /^Password is too easy to guess: it is a sequence/],
    ["abcabcabcabc", undefined, /too easy to guess: it repeats a short pattern/],
    ["1q2w3e4r5t6y", undefined, /too common/],
    ["zxcvbnm,./as", undefined, /too easy to guess: it is a row of keys/],
  ])("refuses %j (email %j)", (password, email, message) => {
    expect(weakPasswordProblem(password, email)).toMatch(message);
  });

  it.each([
    ["correct horse battery staple", "ada@example.com"],
    ["Tr0ub4dor&3-extended", undefined],
    ["ada@example.com is mine", "ada@example.com"],
    ["a brand new passphrase", undefined],
    ["v8-Kq3!zr0-mWx", undefined],
    [`${"a long enough passphrase ".repeat(4)}x`, "ada@example.com"],
  ])("accepts %j", (password, email) => {
    expect(weakPasswordProblem(password, email)).toBeUndefined();
  });

  it("scores the first 64 characters of a long password (zxcvbn's work grows with the length)", () => {
    const strong = "correct horse battery staple on a quiet evening by the old mill.";
    expect(strong).toHaveLength(64);
    expect(weakPasswordProblem(`${strong}${"a".repeat(900)}`)).toBeUndefined();
    expect(weakPasswordProblem(`${"a".repeat(64)}${strong}`)).toMatch(/repeats one character/);
  });

  it("knows tens of thousands of common passwords, without the network", () => {
    expect(isCommonPassword("password")).toBe(true);
    expect(isCommonPassword("iloveyou")).toBe(true);
    expect(isCommonPassword("v8-Kq3!zr0-mWx")).toBe(false);
  });
});
