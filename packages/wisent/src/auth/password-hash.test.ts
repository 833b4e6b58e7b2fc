import { describe, expect, it } from "vitest";
import {
  CONCURRENT_HASHES,
  hashPassword,
  PASSWORD_HASH_PARAMS,
  parsePasswordHash,
  passwordHashParams,
  TEST_PASSWORD_HASH_PARAMS,
  turns,
  verifyPassword,
  verifyWithoutUser,
} from "./password-hash.js";

// Low parameters keep these tests quick; one test uses the real ones.
const LOW = { ln: 10, r: 8, p: 1 };

describe("password hashing (scrypt)", () => {
  it("makes a self-describing string with today's parameters, salted afresh each time", async () => {
    const a = await hashPassword("correct horse battery staple", PASSWORD_HASH_PARAMS);
    const b = await hashPassword("correct horse battery staple", PASSWORD_HASH_PARAMS);
    expect(a).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct");
    expect(parsePasswordHash(a)?.params).toEqual(PASSWORD_HASH_PARAMS);
    expect(await verifyPassword("correct horse battery staple", a, PASSWORD_HASH_PARAMS)).toEqual({
      ok: true,
      rehash: false,
    });
  });

  it.each([
    ["the right password", "a long passphrase!", "a long passphrase!", true],
    ["a wrong password", "a long passphrase!", "a long passphrase?", false],
    ["a differing last character past byte 72", `${"x".repeat(80)}a`, `${"x".repeat(80)}b`, false],
    ["the same 200-character password", "é".repeat(200), "é".repeat(200), true],
    ["the empty string", "a long passphrase!", "", false],
  ])("%s", async (_name, stored, given, ok) => {
    const digest = await hashPassword(stored, LOW);
    expect((await verifyPassword(given, digest, LOW)).ok).toBe(ok);
  });

  it("asks for a rehash when the stored parameters are weaker than today's, only on a match", async () => {
    const old = await hashPassword("a long passphrase!", LOW);
    expect(await verifyPassword("a long passphrase!", old, { ...LOW, ln: 11 })).toEqual({
      ok: true,
      rehash: true,
    });
    expect(await verifyPassword("wrong passphrase!!", old, { ...LOW, ln: 11 })).toEqual({
      ok: false,
      rehash: false,
    });
  });

  it.each(["", "plaintext", "$scrypt$ln=99,r=8,p=1$AAAA$BBBB", "$2b$12$abcdefghijklmnopqrstuv"])(
    "never matches a malformed hash: %j",
    async (digest) => {
      expect(await verifyPassword("plaintext", digest, LOW)).toEqual({ ok: false, rehash: false });
    },
  );

  it("uses cheaper parameters in the test environment only", () => {
    expect(passwordHashParams("test")).toEqual(TEST_PASSWORD_HASH_PARAMS);
    expect(passwordHashParams("production")).toEqual(PASSWORD_HASH_PARAMS);
    expect(passwordHashParams("development")).toEqual(PASSWORD_HASH_PARAMS);
  });

  it("answers false without a user to check against", async () => {
    expect(await verifyWithoutUser("anything at all", LOW)).toBe(false);
  });
});

describe("hashing concurrency", () => {
  it("takes turns: at most `max` at once, the others wait their turn and complete", async () => {
    const inTurn = turns(2);
    let active = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const work = () =>
      new Promise<number>((resolve) => {
        active++;
        most = Math.max(most, active);
        release.push(() => {
          active--;
          resolve(active);
        });
      });
    const all = Promise.all(Array.from({ length: 8 }, () => inTurn(work)));
    // Let every turn that may start, start; then finish them one by one.
    for (let done = 0; done < 8; done++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(active).toBeLessThanOrEqual(2);
      release.shift()?.();
    }
    expect(await all).toHaveLength(8);
    expect(most).toBe(2);
    expect(CONCURRENT_HASHES).toBeGreaterThanOrEqual(1);
  });

  it("hashes correctly when many are asked at once", async () => {
    const digests = await Promise.all(
      Array.from({ length: 6 }, (_, i) => hashPassword(`password number ${i}`, LOW)),
    );
    const checks = await Promise.all(
      digests.map((d, i) => verifyPassword(`password number ${i}`, d, LOW)),
    );
    expect(checks.every((c) => c.ok)).toBe(true);
  });
});
