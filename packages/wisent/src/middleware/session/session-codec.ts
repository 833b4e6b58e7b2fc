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

/**
 * Opens a sealed cookie value with any of the passwords. Anything tampered, expired, sealed with
 * an unknown secret or not an object gives undefined (a fresh session), never an error.
 */
export async function unsealSession(
  sealed: string,
  passwords: readonly SessionPassword[],
): Promise<SessionData | undefined> {
  const hash: Record<string, string> = {};
  for (const { id, secret } of passwords) hash[id] = secret;
  try {
    const data = await unseal(sealed, hash, defaults);
    if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
    return data as SessionData;
  } catch {
    return undefined;
  }
}
