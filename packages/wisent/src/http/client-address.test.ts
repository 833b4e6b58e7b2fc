import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, parseTrustedProxies } from "./client-address.js";

/** The address `clientAddress` gives a request from `peer` with `headers`, under `trusted`. */
async function addressOf(
  peer: string | undefined,
  headers: Record<string, string>,
  trusted?: string,
): Promise<string> {
  if (trusted === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = trusted;
  const app = new Hono();
  app.get("/", (c) => c.text(clientAddress(c)));
  const env = peer === undefined ? {} : { incoming: { socket: { remoteAddress: peer } } };
  const res = await app.request("/", { headers }, env);
  return res.text();
}

afterEach(() => {
  delete process.env.TRUSTED_PROXIES;
});

const XFF = (value: string) => ({ "x-forwarded-for": value });

describe("clientAddress", () => {
  it.each([
    // [peer, headers, TRUSTED_PROXIES, expected]
    ["203.0.113.9", {}, undefined, "203.0.113.9"],
    ["::ffff:203.0.113.9", {}, undefined, "203.0.113.9"],
    [undefined, XFF("203.0.113.7"), "0.0.0.0/0", "unknown"],
    // Without trusted proxies, forwarding headers are anyone's to write: ignored.
    ["10.0.0.2", XFF("203.0.113.7"), undefined, "10.0.0.2"],
    ["10.0.0.2", { forwarded: "for=203.0.113.7" }, undefined, "10.0.0.2"],
    // From a trusted peer: the nearest untrusted hop.
    ["10.0.0.2", XFF("203.0.113.7"), "10.0.0.0/8", "203.0.113.7"],
    ["10.0.0.2", XFF("198.51.100.1, 203.0.113.7"), "10.0.0.0/8", "203.0.113.7"],
    ["10.0.0.2", XFF("203.0.113.7, 10.1.2.3"), "10.0.0.0/8", "203.0.113.7"],
    ["10.0.0.2", XFF("10.9.9.9, 10.1.2.3"), "10.0.0.0/8", "10.9.9.9"],
    ["10.0.0.2", XFF("not-an-ip, 203.0.113.7"), "10.0.0.0/8", "203.0.113.7"],
    ["10.0.0.2", XFF("203.0.113.7, garbage"), "10.0.0.0/8", "10.0.0.2"],
    [
      "10.0.0.2",
      { forwarded: 'for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"' },
      "10.0.0.2",
      "2001:db8::1",
    ],
    ["10.0.0.2", { forwarded: "for=192.0.2.60:8080" }, "10.0.0.2", "192.0.2.60"],
    ["::1", XFF("203.0.113.7"), "::1, 127.0.0.1", "203.0.113.7"],
    // A peer outside the trusted ranges is the client, whatever it forwards.
    ["192.168.1.5", XFF("203.0.113.7"), "10.0.0.0/8", "192.168.1.5"],
    ["10.0.0.2", {}, "10.0.0.0/8", "10.0.0.2"],
  ] as const)("peer %s, %j, TRUSTED_PROXIES=%s: %s", async (peer, headers, trusted, expected) => {
    expect(await addressOf(peer, headers, trusted)).toBe(expected);
  });

  it("refuses a malformed TRUSTED_PROXIES entry, naming it", () => {
    for (const bad of ["10.0.0.0/33", "example.com", "10.0.0.1/8/1", "::1/129", "10.0.0.0/x"]) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(`TRUSTED_PROXIES: "${bad}"`);
    }
    expect(() => parseTrustedProxies("10.0.0.0/8 192.168.1.7,fd00::/8")).not.toThrow();
  });
});
