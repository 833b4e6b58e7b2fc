import { BlockList, isIP, type Socket } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import { BoundedMemo } from "../base/bounded-memo.js";
import { CLIENT_KEY, SOCKET_PEER_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import { trustedProxiesSetting } from "../config/settings.js";
import type { NodeBindings } from "../kernel/node-listener.js";
import {
  forwardedHops,
  forwardedHostHeader,
  forwardedProtoHeader,
  type ProxyHeader,
  proxyHeader,
} from "./forwarding-headers.js";

/**
 * The proxies whose forwarding headers are believed: `TRUSTED_PROXIES`, addresses and CIDR
 * ranges separated by commas or spaces (`10.0.0.0/8, 192.168.1.7, fd00::/8`). Read on first
 * use and again whenever the variable changes; a malformed entry throws, naming it.
 */
export function trustedProxies(value = trustedProxiesSetting()): BlockList | undefined {
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

/**
 * An address as written in a header or by the socket, in its canonical form: quotes, brackets,
 * port and zone dropped, an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`, `::ffff:cb00:7109`)
 * as its IPv4 address, IPv6 compressed in lower case (RFC 5952); undefined when it is not one.
 */
function bareAddress(value: string): string | undefined {
  let text = value.trim();
  if (text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  // node:net's isIP is strict (no `127.1` or `0x7f.0.0.1`, which ipaddr.js would also read).
  const family = isIP(text);
  if (family === 4) return text; // already canonical: no parse on the common path of every log line
  if (family === 0) return undefined;
  return ipaddr.process(text.replace(/%.*$/, "")).toString();
}

function trusts(list: BlockList, address: string): boolean {
  if (list !== trustedFrom) {
    trustedFrom = list;
    trustedPeers = new BoundedMemo(1000);
  }
  // Remembered per address (a server's peers are its few proxies): BlockList.check is a call
  // into C++ that parses the address each time (bench/load/ab-instructions.mjs, JSON show).
  return trustedPeers.get(address, (peer) => list.check(peer, isIP(peer) === 6 ? "ipv6" : "ipv4"));
}
let trustedFrom: BlockList | undefined;
let trustedPeers = new BoundedMemo<string, boolean>(1000);

const SOCKET_PEER: typeof SOCKET_PEER_KEY = SOCKET_PEER_KEY;
type PeerSocket = Socket & { [SOCKET_PEER]?: string | null };

/** The socket's peer address, or undefined outside a Node server (in-process test requests). */
function peerAddress(c: Context): string | undefined {
  const socket = (c.env as Partial<NodeBindings> | undefined)?.incoming?.socket as
    | PeerSocket
    | undefined;
  if (socket !== undefined) {
    // Once a connection, not once a request (a keep-alive connection brings many): the
    // peer's getters and its canonical form were 1.5% of a JSON show (bench/load/
    // ab-instructions.mjs). null: the peer is not an address.
    const known = socket[SOCKET_PEER];
    if (known !== undefined) return known ?? undefined;
    const address = socket.remoteAddress;
    // A closed socket has no address: nothing to remember.
    if (address === undefined) return undefined;
    const peer = bareAddresses.get(address, bareAddress) ?? null;
    socket[SOCKET_PEER] = peer;
    return peer ?? undefined;
  }
  try {
    const address = getConnInfo(c).remote.address;
    // The same few peers each request: their canonical form remembered, not parsed again.
    return address === undefined ? undefined : bareAddresses.get(address, bareAddress);
  } catch {
    return undefined;
  }
}

/** What the request says about its client, once worked out. */
interface Client {
  readonly address: string;
  /** The scheme a trusted proxy reported the client used, if it did. */
  readonly scheme: "http" | "https" | undefined;
  /** The Host a trusted proxy reported the client asked for, if it did. */
  readonly host: string | undefined;
}

const bareAddresses = new BoundedMemo<string, string | undefined>(1000);

const CLIENT: typeof CLIENT_KEY = CLIENT_KEY;
type Marked = Context & { [CLIENT]?: Client };

function schemeOf(proto: string | undefined): Client["scheme"] {
  return proto === "https" || proto === "http" ? proto : undefined;
}

/** `TRUSTED_PROXIES` and `TRUSTED_PROXY_HEADER`, as {@link trustedProxies} and `proxyHeader` read them. */
export interface ProxySettings {
  readonly trusted: BlockList | undefined;
  readonly header: ProxyHeader;
}

/**
 * `TRUSTED_PROXIES` and `TRUSTED_PROXY_HEADER`, read now; an App reads them once
 * (`WisentRuntime.proxies`).
 * @throws WisentError `E_CONFIG_INVALID` naming a malformed entry
 */
export function readProxySettings(): ProxySettings {
  return { trusted: trustedProxies(), header: proxyHeader() };
}

/**
 * The proxy settings of the request's App (read once: two reads of `process.env` were 2% of a
 * JSON show, bench/load/ab.mjs with --cpu-prof); outside an App, read from the environment now.
 */
function proxySettings(c: Context): ProxySettings {
  // Undefined outside an App (a bare Hono app, a test's context).
  const proxies = (c.get("wisent") as { proxies?: () => ProxySettings } | undefined)?.proxies;
  return proxies ? proxies() : readProxySettings();
}

/**
 * The socket's peer, unless it is one of `TRUSTED_PROXIES`: then the hops of the proxy's header
 * read from the nearest backwards, trusted proxies skipped; worked out once a request (callers
 * look for it on `c` first).
 */
function client(c: Context, { trusted, header }: ProxySettings): Client {
  const peer = peerAddress(c);
  let found: Client = { address: peer ?? "unknown", scheme: undefined, host: undefined };
  if (trusted && peer !== undefined && trusts(trusted, peer)) {
    const hops = forwardedHops(c, header);
    // X-Forwarded-Proto and -Host hold for the whole chain; a `Forwarded` element says how its
    // proxy was reached, so they are the client's element's (or the nearest that said).
    let address = peer;
    let scheme = schemeOf(forwardedProtoHeader(c, header));
    let host = forwardedHostHeader(c, header);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = bareAddress(hops[i]!.for);
      // A hop that is not an address was written by someone untrusted: stop at the last good one.
      if (hop === undefined) break;
      address = hop;
      scheme = schemeOf(hops[i]!.proto) ?? scheme;
      host = hops[i]!.host ?? host;
      if (!trusts(trusted, hop)) break;
    }
    found = { address, scheme, host };
  }
  (c as Marked)[CLIENT] = found;
  return found;
}

/**
 * The client's IP address: the socket's peer, unless that peer is one of `TRUSTED_PROXIES`; then
 * the forwarded hops are read from the nearest backwards, skipping trusted proxies, and the first
 * other address is the client (Rails' `remote_ip`). The hops come from one header, the one
 * `TRUSTED_PROXY_HEADER` names: `X-Forwarded-For` by default, RFC 7239's `Forwarded` (`for=`)
 * with `TRUSTED_PROXY_HEADER=forwarded`; the other is ignored. Without `TRUSTED_PROXIES`
 * forwarding headers are ignored, as anyone can send them. Production log lines use it, rate
 * limits its `addressKey`; `"unknown"` outside a Node server.
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
  return ((c as Marked)[CLIENT] ?? client(c, proxySettings(c))).address;
}

/**
 * The scheme a trusted proxy says the client used: `X-Forwarded-Proto` (or, with
 * `TRUSTED_PROXY_HEADER=forwarded`, the client's `Forwarded` element's `proto=`), read only when
 * the socket's peer is one of `TRUSTED_PROXIES`; undefined otherwise, as anyone can send it.
 *
 * @example
 * // TRUSTED_PROXIES=10.0.0.2, a request from 10.0.0.2 with X-Forwarded-Proto: https
 * forwardedScheme(c); // "https"
 */
export function forwardedScheme(c: Context): "http" | "https" | undefined {
  // Worked out once a request; without TRUSTED_PROXIES (clients reach the app directly) the
  // socket is not looked at.
  const known = (c as Marked)[CLIENT];
  if (known !== undefined) return known.scheme;
  const settings = proxySettings(c);
  return settings.trusted === undefined ? undefined : client(c, settings).scheme;
}

/**
 * The Host a trusted proxy says the client asked for: `X-Forwarded-Host` (or, with
 * `TRUSTED_PROXY_HEADER=forwarded`, the client's `Forwarded` element's `host=`), read only when
 * the socket's peer is one of `TRUSTED_PROXIES`; undefined otherwise. Not checked here: the
 * caller validates it as any Host.
 *
 * @example
 * // TRUSTED_PROXIES=10.0.0.2, a request from 10.0.0.2 with X-Forwarded-Host: shop.example
 * forwardedHost(c); // "shop.example"
 */
export function forwardedHost(c: Context): string | undefined {
  const known = (c as Marked)[CLIENT];
  if (known !== undefined) return known.host;
  const settings = proxySettings(c);
  return settings.trusted === undefined ? undefined : client(c, settings).host;
}

/**
 * The key rate limits count a client address under: an IPv4 address alone, an IPv6 address by
 * its /64 (`2001:db8:1:2::/64`), the network one subscriber is handed, so that an attacker with
 * one /64 cannot make each of its 2^64 addresses a fresh client. An IPv4-mapped IPv6 address is
 * its IPv4 address. Anything else (`unknown`) is its own key.
 *
 * @example
 * addressKey("2001:db8:1:2::7"); // "2001:db8:1:2::/64"
 * addressKey("203.0.113.7"); // "203.0.113.7"
 */
export function addressKey(address: string): string {
  const bare = bareAddress(address);
  if (bare === undefined || isIP(bare) !== 6) return bare ?? address;
  const parts = ipaddr.IPv6.parse(bare).parts;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The rate-limit key of the request's client: `addressKey` of {@link clientAddress}. The
 * default `by` of `rateLimit()` and the key of `SignInLimits`.
 *
 * @example
 * app.use(rateLimit({ limit: 100, window: 60, by: clientAddressKey })); // the default
 */
export function clientAddressKey(c: Context): string {
  return addressKey(clientAddress(c));
}
