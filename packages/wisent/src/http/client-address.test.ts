import { type Context, Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import {
  addressKey,
  clientAddress,
  forwardedHost,
  forwardedScheme,
  parseTrustedProxies,
} from "./client-address.js";
import { proxyHeader } from "./forwarding-headers.js";

/** What `read` gives a request from `peer` with `headers`, under `trusted` and `proxyHeader`. */
async function seen(
  read: (c: Context) => string | undefined,
  peer: string | undefined,
  headers: Record<string, string>,
  trusted?: string,
  proxyHeader?: string,
): Promise<string> {
  if (trusted === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = trusted;
  if (proxyHeader === undefined) delete process.env.TRUSTED_PROXY_HEADER;
  else process.env.TRUSTED_PROXY_HEADER = proxyHeader;
  const app = new Hono();
  app.get("/", (c) => c.text(String(read(c))));
  const env = peer === undefined ? {} : { incoming: { socket: { remoteAddress: peer } } };
  const res = await app.request("/", { headers }, env);
  return res.text();
}

const addressOf = (
  peer: string | undefined,
  headers: Record<string, string>,
  trusted?: string,
  proxyHeader?: string,
) => seen(clientAddress, peer, headers, trusted, proxyHeader);

afterEach(() => {
  delete process.env.TRUSTED_PROXIES;
  delete process.env.TRUSTED_PROXY_HEADER;
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
    // By default only X-Forwarded-For is read: a client's own Forwarded is ignored.
    ["10.0.0.2", { forwarded: "for=192.0.2.60" }, "10.0.0.2", "10.0.0.2"],
    ["::1", XFF("203.0.113.7"), "::1, 127.0.0.1", "203.0.113.7"],
    ["::ffff:cb00:7109", {}, undefined, "203.0.113.9"],
    ["2001:DB8:0:0::1", {}, undefined, "2001:db8::1"],
    // A peer outside the trusted ranges is the client, whatever it forwards.
    ["192.168.1.5", XFF("203.0.113.7"), "10.0.0.0/8", "192.168.1.5"],
    ["10.0.0.2", {}, "10.0.0.0/8", "10.0.0.2"],
  ] as const)("peer %s, %j, TRUSTED_PROXIES=%s: %s", async (peer, headers, trusted, expected) => {
    expect(await addressOf(peer, headers, trusted)).toBe(expected);
  });

  it.each([
    // [peer, headers, TRUSTED_PROXIES, expected] under TRUSTED_PROXY_HEADER=forwarded
    [
      "10.0.0.2",
      { forwarded: 'for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"' },
      "10.0.0.2",
      "2001:db8::1",
    ],
    ["10.0.0.2", { forwarded: 'for="192.0.2.60:8080"' }, "10.0.0.2", "192.0.2.60"],
    ["10.0.0.2", { forwarded: "For=192.0.2.61;Proto=https" }, "10.0.0.2", "192.0.2.61"],
    ["10.0.0.2", { forwarded: "for=203.0.113.7, for=10.1.2.3" }, "10.0.0.0/8", "203.0.113.7"],
    // A proxy that writes only Forwarded passes the client's own X-Forwarded-For through.
    [
      "10.0.0.2",
      { ...XFF("198.51.100.99"), forwarded: "for=203.0.113.7" },
      "10.0.0.2",
      "203.0.113.7",
    ],
    ["10.0.0.2", XFF("198.51.100.99"), "10.0.0.2", "10.0.0.2"],
    // Not RFC 7239's syntax, or an obfuscated client: the nearest good hop.
    ["10.0.0.2", { forwarded: 'for="unterminated' }, "10.0.0.2", "10.0.0.2"],
    ["10.0.0.2", { forwarded: "for=192.0.2.60:8080" }, "10.0.0.2", "10.0.0.2"],
    ["10.0.0.2", { forwarded: "for=_hidden, for=10.1.2.3" }, "10.0.0.0/8", "10.1.2.3"],
    ["10.0.0.2", { forwarded: "for=203.0.113.7" }, undefined, "10.0.0.2"],
  ] as const)(
    "Forwarded: peer %s, %j, TRUSTED_PROXIES=%s: %s",
    async (peer, headers, trusted, expected) => {
      expect(await addressOf(peer, headers, trusted, "forwarded")).toBe(expected);
    },
  );

  it("refuses a TRUSTED_PROXY_HEADER it does not know, naming it", () => {
    expect(() => proxyHeader("x-real-ip")).toThrow(
      /TRUSTED_PROXY_HEADER must be "x-forwarded" .* or "forwarded" .*, got "x-real-ip"/,
    );
    expect(proxyHeader("Forwarded")).toBe("forwarded");
    expect(proxyHeader(undefined)).toBe("x-forwarded");
  });

  it("refuses a malformed TRUSTED_PROXIES entry, naming it", () => {
    for (const bad of ["10.0.0.0/33", "example.com", "10.0.0.1/8/1", "::1/129", "10.0.0.0/x"]) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(`TRUSTED_PROXIES: "${bad}"`);
    }
    expect(() => parseTrustedProxies("10.0.0.0/8 192.168.1.7,fd00::/8")).not.toThrow();
  });
});

describe("forwardedScheme", () => {
  const XFP = (value: string) => ({ "x-forwarded-proto": value });
  it.each([
    // [peer, headers, TRUSTED_PROXIES, TRUSTED_PROXY_HEADER, expected]
    ["10.9.9.9", XFP("https"), "10.9.9.9", undefined, "https"],
    ["10.9.9.9", XFP("HTTPS, http"), "10.9.9.9", undefined, "https"],
    ["10.9.9.9", XFP("http"), "10.9.9.9", undefined, "http"],
    // From a peer that is not a trusted proxy, anyone could have written it.
    ["127.0.0.1", XFP("https"), "10.9.9.9", undefined, "undefined"],
    ["127.0.0.1", XFP("https"), undefined, undefined, "undefined"],
    [undefined, XFP("https"), "0.0.0.0/0", undefined, "undefined"],
    // Under Forwarded, X-Forwarded-Proto is the client's; the client's element's proto counts.
    ["10.9.9.9", XFP("https"), "10.9.9.9", "forwarded", "undefined"],
    ["10.9.9.9", { forwarded: "for=203.0.113.7;proto=https" }, "10.9.9.9", "forwarded", "https"],
    [
      "10.9.9.9",
      { forwarded: "for=203.0.113.7;proto=http, for=10.1.1.1;proto=https" },
      "10.0.0.0/8",
      "forwarded",
      "http",
    ],
    ["10.9.9.9", { forwarded: "for=203.0.113.7;proto=https" }, "10.9.9.9", undefined, "undefined"],
  ] as const)(
    "peer %s, %j, TRUSTED_PROXIES=%s, TRUSTED_PROXY_HEADER=%s: %s",
    async (peer, headers, trusted, proxyHeader, expected) => {
      expect(await seen(forwardedScheme, peer, headers, trusted, proxyHeader)).toBe(expected);
    },
  );
});

describe("forwardedHost", () => {
  it.each([
    ["10.9.9.9", { "x-forwarded-host": "shop.example, inner" }, undefined, "shop.example"],
    ["127.0.0.1", { "x-forwarded-host": "evil.example" }, undefined, "undefined"],
    ["10.9.9.9", { "x-forwarded-host": "evil.example" }, "forwarded", "undefined"],
    ["10.9.9.9", { forwarded: "for=203.0.113.7;host=shop.example" }, "forwarded", "shop.example"],
  ] as const)(
    "peer %s, %j, TRUSTED_PROXY_HEADER=%s: %s",
    async (peer, headers, proxyHeader, expected) => {
      expect(await seen(forwardedHost, peer, headers, "10.9.9.9", proxyHeader)).toBe(expected);
    },
  );
});

describe("a request's client", () => {
  it("is worked out once: the scheme, host and address its trusted proxy gave stay its own", async () => {
    const read = (c: Context) => {
      const scheme = forwardedScheme(c);
      // Read once a request (bench/load/ab-instructions.mjs): a change now is the next request's.
      delete process.env.TRUSTED_PROXIES;
      return `${scheme} ${forwardedHost(c)} ${clientAddress(c)}`;
    };
    const headers = {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "shop.example",
      ...XFF("203.0.113.7"),
    };
    expect(await seen(read, "10.9.9.9", headers, "10.9.9.9")).toBe(
      "https shop.example 203.0.113.7",
    );
    expect(await seen(forwardedScheme, "10.9.9.9", headers)).toBe("undefined");
  });
});

describe("addressKey", () => {
  it.each([
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002::9", "2001:db8:1:2::/64"],
    ["::1", "::/64"],
    ["fe80::1%eth0", "fe80::/64"],
    // IPv4, and IPv4 written as IPv6, stay per address.
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["unknown", "unknown"],
  ])("%s counts as %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
