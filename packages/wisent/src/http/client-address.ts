import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { CLIENT_ADDRESS_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import { envValue } from "../config/env.js";

/**
 * The proxies whose forwarding headers are believed: `TRUSTED_PROXIES`, addresses and CIDR
 * ranges separated by commas or spaces (`10.0.0.0/8, 192.168.1.7, fd00::/8`). Read on first
 * use and again whenever the variable changes; a malformed entry throws, naming it.
 */
export function trustedProxies(value = envValue("TRUSTED_PROXIES")): BlockList | undefined {
  const text = value?.trim() ?? "";
  if (text === cached.text) return cached.list;
  const list = text === "" ? undefined : parseTrustedProxies(text);
  cached = { text, list };
  return list;
}
let cached: { text: string; list: BlockList | undefined } = { text: "", list: undefined };

/** `TRUSTED_PROXIES`' syntax as a BlockList (exported for its tests and `wisent start`'s check). */
export function parseTrustedProxies(text: string): BlockList {
  const list = new BlockList();
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address, bits, extra] = entry.split("/");
    const family = isIP(address ?? "");
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max))
    ) {
      throw new WisentError(
        "E_CONFIG_INVALID",
        `TRUSTED_PROXIES: "${entry}" is not an IP address or a CIDR range (10.0.0.0/8, 192.168.1.7, fd00::/8)`,
      );
    }
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, prefix, type);
  }
  return list;
}

/** An address as written in a header or by the socket: brackets, port and `::ffff:` dropped. */
function bareAddress(value: string): string | undefined {
  let text = value.trim();
  if (text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  if (/^::ffff:[\d.]+$/i.test(text)) text = text.slice(7);
  return isIP(text) === 0 ? undefined : text.toLowerCase();
}

function trusts(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** The hops a request went through, nearest last: `X-Forwarded-For`, else `Forwarded`'s `for=`. */
function forwardedHops(c: Context): string[] {
  const xff = c.req.raw.headers.get("x-forwarded-for");
  if (xff !== null) return xff.split(",");
  const forwarded = c.req.raw.headers.get("forwarded");
  if (forwarded === null) return [];
  const hops: string[] = [];
  for (const element of forwarded.split(",")) {
    const pair = element.split(";").find((p) => /^\s*for\s*=/i.test(p));
    hops.push(pair ? pair.slice(pair.indexOf("=") + 1) : "");
  }
  return hops;
}

/** The socket's peer address, or undefined outside a Node server (in-process test requests). */
function peerAddress(c: Context): string | undefined {
  try {
    const address = getConnInfo(c).remote.address;
    return address === undefined ? undefined : bareAddress(address);
  } catch {
    return undefined;
  }
}

const ADDRESS: typeof CLIENT_ADDRESS_KEY = CLIENT_ADDRESS_KEY;
type Marked = Context & { [ADDRESS]?: string };

/**
 * The client's IP address: the socket's peer, unless that peer is one of `TRUSTED_PROXIES`; then
 * the forwarded hops (`X-Forwarded-For`, else `Forwarded: for=`) are read from the nearest
 * backwards, skipping trusted proxies, and the first other address is the client (Rails'
 * `remote_ip`). Without `TRUSTED_PROXIES` forwarding headers are ignored, as anyone can send
 * them. Rate limits and production log lines use it; `"unknown"` outside a Node server.
 *
 * @param c - the request's context
 * @returns the address (IPv4, or IPv6 without brackets), or `"unknown"`
 * @throws WisentError `E_CONFIG_INVALID` when `TRUSTED_PROXIES` holds an entry that is not an
 *   address or CIDR range, naming it
 * @example
 * // TRUSTED_PROXIES=10.0.0.0/8, a request from 10.0.0.2 with X-Forwarded-For: 203.0.113.7
 * clientAddress(c); // "203.0.113.7"
 */
export function clientAddress(c: Context): string {
  const known = (c as Marked)[ADDRESS];
  if (known !== undefined) return known;
  const peer = peerAddress(c);
  let address = peer ?? "unknown";
  const trusted = peer === undefined ? undefined : trustedProxies();
  if (trusted && peer !== undefined && trusts(trusted, peer)) {
    const hops = forwardedHops(c);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = bareAddress(hops[i]!);
      // A hop that is not an address was written by someone untrusted: stop at the last good one.
      if (hop === undefined) break;
      address = hop;
      if (!trusts(trusted, hop)) break;
    }
  }
  (c as Marked)[ADDRESS] = address;
  return address;
}
