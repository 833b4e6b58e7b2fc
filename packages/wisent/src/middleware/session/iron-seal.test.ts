import { defaults, seal, unseal } from "iron-webcrypto";
import { describe, expect, it } from "vitest";
import { ironSeal, ironUnseal } from "./iron-seal.js";

const SECRET = "a-session-secret-of-at-least-32-characters";
const OTHER = "another-secret-also-of-at-least-32-characters";
const password = { id: "k1", secret: SECRET };
const secrets = new Map([["k1", SECRET]]);
const data = { _id: "x9", authenticity_token: "t".repeat(43), note: "naïve ✓ \u{1F403}" };
const DAY = 86_400_000;

describe("Iron's sealed format with node:crypto", () => {
  it("opens what iron-webcrypto sealed, and iron-webcrypto opens what it seals", async () => {
    const theirs = await seal(data, password, { ...defaults, ttl: DAY });
    expect(JSON.parse(ironUnseal(theirs, secrets)!)).toEqual(data);
    const ours = ironSeal(JSON.stringify(data), password, DAY);
    expect(await unseal(ours, { k1: SECRET }, defaults)).toEqual(data);
    // Without a ttl: no expiration part, on both sides.
    const forever = ironSeal(JSON.stringify(data), password, 0);
    expect(forever.split("*")[5]).toBe("");
    expect(await unseal(forever, { k1: SECRET }, defaults)).toEqual(data);
  });

  it("gives nothing for a tampered part, another secret, an unknown id or a malformed value", () => {
    const sealed = ironSeal(JSON.stringify(data), password, DAY);
    const parts = sealed.split("*");
    for (const at of [1, 2, 3, 4, 5, 6, 7]) {
      const changed = [...parts];
      const part = changed[at]!;
      // The first character: every one of its bits is data (a base64 text's last may be padding).
      changed[at] = part === "" ? "1" : `${part.startsWith("A") ? "g" : "A"}${part.slice(1)}`;
      expect(ironUnseal(changed.join("*"), secrets), `part ${at}`).toBeUndefined();
    }
    expect(ironUnseal(sealed, new Map([["k1", OTHER]]))).toBeUndefined();
    expect(ironUnseal(sealed, new Map([["k2", SECRET]]))).toBeUndefined();
    for (const bad of [
      "",
      "Fe26.2",
      `Fe26.1${sealed.slice(6)}`,
      `${sealed}*x`,
      sealed.slice(0, -3),
    ]) {
      expect(ironUnseal(bad, secrets), bad.slice(0, 20)).toBeUndefined();
    }
  });

  it("opens until the ttl has passed, with Iron's 60 s of clock skew", () => {
    const now = Date.UTC(2026, 10, 25);
    const sealed = ironSeal("{}", password, DAY, now);
    expect(ironUnseal(sealed, secrets, now + DAY + 59_000)).toBe("{}");
    expect(ironUnseal(sealed, secrets, now + DAY + 60_000)).toBeUndefined();
  });

  it("takes a rotated-out secret by the id the value names", () => {
    const old = ironSeal("{}", { id: "old", secret: OTHER }, DAY);
    const both = new Map([
      ["k1", SECRET],
      ["old", OTHER],
    ]);
    expect(ironUnseal(old, both)).toBe("{}");
    expect(() => ironSeal("{}", { id: "not an id", secret: SECRET }, DAY)).toThrow(/password id/);
  });
});
