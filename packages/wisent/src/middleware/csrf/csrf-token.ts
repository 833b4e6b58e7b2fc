import { randomBytes, timingSafeEqual } from "node:crypto";
import { fillRandom } from "../../crypto/random-bytes.js";

/** Length of the per-session secret in bytes. */
const SECRET_BYTES = 32;

/** A new per-session CSRF secret (base64url). */
export function newCsrfSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

/**
 * A one-time masked token for the secret: base64url(pad + (pad XOR secret)), 86 characters.
 * Masking makes every page's token different (so BREACH-style compression attacks learn nothing)
 * while any of them verifies against the same session secret.
 */
export function maskCsrfToken(secret: string): string {
  const raw = Buffer.from(secret, "base64url");
  const token = Buffer.allocUnsafe(raw.length * 2);
  // The pad: fresh CSPRNG bytes from the shared pool (wiped there once taken).
  fillRandom(token, raw.length);
  for (let i = 0; i < raw.length; i++) token[raw.length + i] = token[i]! ^ raw[i]!;
  return token.toString("base64url");
}

/** True when `token` is a masked form of `secret` (constant-time comparison). */
export function verifyCsrfToken(token: string, secret: string): boolean {
  const raw = Buffer.from(secret, "base64url");
  const decoded = Buffer.from(
    token.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
    "base64url",
  );
  if (raw.length !== SECRET_BYTES || decoded.length !== raw.length * 2) return false;
  const unmasked = Buffer.alloc(raw.length);
  for (let i = 0; i < raw.length; i++) unmasked[i] = decoded[i]! ^ decoded[i + raw.length]!;
  return timingSafeEqual(unmasked, raw);
}
