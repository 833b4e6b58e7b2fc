import { defaults, seal, unseal } from "iron-webcrypto";
import type { SessionPassword } from "./session-secrets.js";

/** Session contents: any JSON-serialisable values by key. */
export type SessionData = Record<string, unknown>;

/**
 * Seals session data into a cookie value (AES-256-CBC + HMAC-SHA256, via iron-webcrypto) with the
 * first password; `maxAgeSeconds` also bounds how long the sealed value is accepted.
 */
export function sealSession(
  data: SessionData,
  passwords: readonly SessionPassword[],
  maxAgeSeconds: number,
): Promise<string> {
  return seal(data, passwords[0]!, { ...defaults, ttl: maxAgeSeconds * 1000 });
}

/** How many opened cookies each password set remembers. */
const CACHE_SIZE = 1000;
const opened = new WeakMap<
  readonly SessionPassword[],
  Map<string, { json: string; expires: number }>
>();

/**
 * Opening a sealed value costs a key derivation, an HMAC and a decryption (about half a
 * millisecond); a returning browser sends the same cookie on every request, so its opened
 * contents are remembered (per password set, bounded, until the seal's own expiry).
 */
function cacheFor(passwords: readonly SessionPassword[]) {
  let cache = opened.get(passwords);
  if (!cache) {
    cache = new Map();
    opened.set(passwords, cache);
  }
  return cache;
}

/** Iron's format: `Fe26.2*id*salt*iv*data*expiration*hmacSalt*hmac`; expiration in ms or empty. */
function expiryOf(sealed: string): number {
  const expiration = Number(sealed.split("*")[5]);
  return Number.isFinite(expiration) && expiration > 0 ? expiration : Number.POSITIVE_INFINITY;
}

/**
 * The contents of a sealed cookie opened before, as JSON, without opening it again; undefined
 * when it was not opened (recently) or has expired. Synchronous: a returning browser's request
 * needs no promise to find its session.
 */
export function openedSessionJson(
  sealed: string,
  passwords: readonly SessionPassword[],
): string | undefined {
  const cache = cacheFor(passwords);
  const hit = cache.get(sealed);
  if (!hit) return undefined;
  cache.delete(sealed);
  if (hit.expires <= Date.now()) return undefined;
  cache.set(sealed, hit);
  return hit.json;
}

/**
 * Opens a sealed cookie value with any of the passwords. Anything tampered, expired, sealed with
 * an unknown secret or not an object gives undefined (a fresh session), never an error.
 */
export async function unsealSession(
  sealed: string,
  passwords: readonly SessionPassword[],
): Promise<SessionData | undefined> {
  const json = openedSessionJson(sealed, passwords);
  if (json !== undefined) return JSON.parse(json) as SessionData;
  const hash: Record<string, string> = {};
  for (const { id, secret } of passwords) hash[id] = secret;
  let data: unknown;
  try {
    data = await unseal(sealed, hash, defaults);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const cache = cacheFor(passwords);
  cache.set(sealed, { json: JSON.stringify(data), expires: expiryOf(sealed) });
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return data as SessionData;
}
