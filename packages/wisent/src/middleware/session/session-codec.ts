import { ironSeal, ironUnseal } from "./iron-seal.js";
import type { SessionPassword } from "./session-secrets.js";

/** Session contents: any JSON-serialisable values by key. */
export type SessionData = Record<string, unknown>;

/**
 * Seals session data into a cookie value (Iron's format: AES-256-CBC + HMAC-SHA256) with the
 * first password; `maxAgeSeconds` also bounds how long the sealed value is accepted.
 *
 * @example
 * const value = sealSessionNow({ user_id: 1 }, passwords, 14 * 86_400);
 */
export function sealSessionNow(
  data: SessionData,
  passwords: readonly SessionPassword[],
  maxAgeSeconds: number,
): string {
  return ironSeal(JSON.stringify(data), passwords[0]!, maxAgeSeconds * 1000);
}

/** {@link sealSessionNow}, as a promise (the API before sealing became synchronous). */
export function sealSession(
  data: SessionData,
  passwords: readonly SessionPassword[],
  maxAgeSeconds: number,
): Promise<string> {
  return Promise.resolve().then(() => sealSessionNow(data, passwords, maxAgeSeconds));
}

/** How many opened cookies each password set remembers. */
const CACHE_SIZE = 1000;
const opened = new WeakMap<
  readonly SessionPassword[],
  Map<string, { json: string; expires: number }>
>();

/**
 * Opening a sealed value costs two key derivations, an HMAC and a decryption; a returning
 * browser sends the same cookie on every request, so its opened contents are remembered (per
 * password set, bounded, until the seal's own expiry).
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

const secretsByPasswords = new WeakMap<readonly SessionPassword[], Map<string, string>>();

function secretsOf(passwords: readonly SessionPassword[]): Map<string, string> {
  let secrets = secretsByPasswords.get(passwords);
  if (!secrets) {
    secrets = new Map(passwords.map(({ id, secret }) => [id, secret]));
    secretsByPasswords.set(passwords, secrets);
  }
  return secrets;
}

/**
 * Opens a sealed cookie value with any of the passwords. Anything tampered, expired, sealed with
 * an unknown secret or not an object gives undefined (a fresh session), never an error.
 *
 * @example
 * const data = unsealSessionNow(cookie, passwords) ?? {};
 */
export function unsealSessionNow(
  sealed: string,
  passwords: readonly SessionPassword[],
): SessionData | undefined {
  const remembered = openedSessionJson(sealed, passwords);
  if (remembered !== undefined) return JSON.parse(remembered) as SessionData;
  const json = ironUnseal(sealed, secretsOf(passwords));
  if (json === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const cache = cacheFor(passwords);
  cache.set(sealed, { json, expires: expiryOf(sealed) });
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return data as SessionData;
}

/** {@link unsealSessionNow}, as a promise (the API before opening became synchronous). */
export function unsealSession(
  sealed: string,
  passwords: readonly SessionPassword[],
): Promise<SessionData | undefined> {
  return Promise.resolve().then(() => unsealSessionNow(sealed, passwords));
}
