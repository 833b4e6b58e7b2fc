/**
 * What a trusted proxy says about the client: the hops, scheme and host of `X-Forwarded-For`,
 * `X-Forwarded-Proto` and `X-Forwarded-Host`, or of RFC 7239's `Forwarded`, whichever
 * `TRUSTED_PROXY_HEADER` names. Only
 * one of them is read: a proxy writes its own and passes the other through as the client sent
 * it, so reading both would let a client choose its address.
 * @module
 */

import parseForwarded from "forwarded-parse";
import type { Context } from "hono";
import { ConfigError } from "../config/env.js";
import { trustedProxyHeaderSetting } from "../config/settings.js";
import { requestHeader } from "./request-header.js";

/** Which header the trusted proxies write: `x-forwarded` (the default) or `forwarded`. */
export type ProxyHeader = "x-forwarded" | "forwarded";

/**
 * `TRUSTED_PROXY_HEADER`: `x-forwarded` (default: `X-Forwarded-For` and `X-Forwarded-Proto`) or
 * `forwarded` (RFC 7239's `Forwarded: for=...;proto=...`). Anything else throws, naming it.
 *
 * @example
 * // TRUSTED_PROXY_HEADER=forwarded
 * proxyHeader(); // "forwarded"
 */
export function proxyHeader(value = trustedProxyHeaderSetting()): ProxyHeader {
  const normal = value?.toLowerCase() ?? "x-forwarded";
  if (normal === "x-forwarded" || normal === "forwarded") return normal;
  throw new ConfigError(
    `TRUSTED_PROXY_HEADER must be "x-forwarded" (X-Forwarded-For and X-Forwarded-Proto) or "forwarded" (RFC 7239), got ${JSON.stringify(value)}`,
  );
}

/** One hop a proxy recorded: the address it received the request from, and over which scheme. */
export interface ForwardedHop {
  /** As written (`203.0.113.7`, `"[2001:db8::1]:4711"`, `unknown`); `""` when missing. */
  readonly for: string;
  /** `http` or `https` when the hop says (the `Forwarded` element's `proto`). */
  readonly proto?: string;
  /** The Host the client asked this proxy for (the `Forwarded` element's `host`). */
  readonly host?: string;
}

/**
 * The hops of the header `TRUSTED_PROXY_HEADER` names, nearest last; a `Forwarded` header that
 * is not RFC 7239's syntax gives no hops (someone untrusted wrote it: the peer is the client).
 */
export function forwardedHops(c: Context, header: ProxyHeader = proxyHeader()): ForwardedHop[] {
  if (header === "x-forwarded") {
    const xff = requestHeader(c, "x-forwarded-for");
    return xff === undefined ? [] : xff.split(",").map((hop) => ({ for: hop }));
  }
  const forwarded = requestHeader(c, "forwarded");
  if (forwarded === undefined) return [];
  try {
    return parseForwarded(forwarded).map((element) => ({
      for: element.for ?? "",
      ...(element.proto === undefined ? {} : { proto: element.proto.toLowerCase() }),
      ...(element.host === undefined ? {} : { host: element.host }),
    }));
  } catch {
    return [];
  }
}

/** `X-Forwarded-Proto`'s first scheme, lower-cased (only under `TRUSTED_PROXY_HEADER=x-forwarded`). */
export function forwardedProtoHeader(
  c: Context,
  header: ProxyHeader = proxyHeader(),
): string | undefined {
  if (header !== "x-forwarded") return undefined;
  return requestHeader(c, "x-forwarded-proto")?.split(",", 1)[0]?.trim().toLowerCase();
}

/** `X-Forwarded-Host`'s first host (only under `TRUSTED_PROXY_HEADER=x-forwarded`). */
export function forwardedHostHeader(
  c: Context,
  header: ProxyHeader = proxyHeader(),
): string | undefined {
  if (header !== "x-forwarded") return undefined;
  return requestHeader(c, "x-forwarded-host")?.split(",", 1)[0]?.trim() || undefined;
}
