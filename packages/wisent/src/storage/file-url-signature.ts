import { createHmac, timingSafeEqual } from "node:crypto";
import { WisentError } from "../base/wisent-error.js";

/** How long a private file's URL works at least: one hour (up to {@link SIGNED_URL_STEP_SECONDS} more). */
export const SIGNED_FILE_URL_SECONDS = 60 * 60;

/**
 * Expiry times are rounded up to this step, so that a page shows the same URL for a file for a
 * quarter of an hour and the browser's cache (`private, max-age`) keeps serving it meanwhile.
 */
export const SIGNED_URL_STEP_SECONDS = 15 * 60;

/** The app's secrets, newest first: the first signs, every one verifies (rotation). */
type Secrets = () => readonly string[];

let secrets: Secrets | undefined;
let cachedSecrets: readonly string[] | undefined;

/**
 * Sets where private files' URLs get their signing secrets (the App sets the session secrets:
 * `SESSION_SECRET`, development's own, test's random one), read on first use.
 *
 * @example
 * useFileUrlSecrets(() => ["a secret of at least 32 characters......"]);
 */
export function useFileUrlSecrets(provider: Secrets | undefined): void {
  secrets = provider;
  cachedSecrets = undefined;
}

function currentSecrets(): readonly string[] {
  if (cachedSecrets) return cachedSecrets;
  if (!secrets) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      "a private file's URL is signed with the app's secret, and no App was made in this process: make the App (or call useFileUrlSecrets) before reading a private file's url",
    );
  }
  const found = secrets();
  if (found.length === 0) {
    throw new WisentError("E_APP_MISCONFIGURED", "no secret to sign private files' URLs with");
  }
  cachedSecrets = found;
  return found;
}

function mac(secret: string, key: string, expires: number): Buffer {
  return createHmac("sha256", `wisent stored file\0${secret}`)
    .update(`${key}\0${expires}`)
    .digest();
}

/**
 * The query that lets anyone holding it fetch the stored file `key` until it expires:
 * `expires=<unix seconds>&signature=<HMAC-SHA256, base64url>`.
 *
 * @example
 * signedFileQuery("private/0193....png"); // "expires=1767225600&signature=..."
 */
export function signedFileQuery(key: string, nowMs: number = Date.now()): string {
  const step = SIGNED_URL_STEP_SECONDS;
  const expires = Math.ceil((nowMs / 1000 + SIGNED_FILE_URL_SECONDS) / step) * step;
  const signature = mac(currentSecrets()[0] as string, key, expires).toString("base64url");
  return `expires=${expires}&signature=${signature}`;
}

/** What a file URL's signature says: good until `expires` (unix seconds), expired, or forged. */
export type FileSignatureCheck =
  | { readonly ok: true; readonly expires: number }
  | { readonly ok: false; readonly reason: "expired" | "invalid" };

/**
 * Checks a private file URL's `expires` and `signature` for the stored file `key`: made with
 * one of the app's secrets and not yet expired.
 *
 * @example
 * verifyFileSignature("private/0193....png", c.req.query("expires"), c.req.query("signature"));
 */
export function verifyFileSignature(
  key: string,
  expiresText: string | undefined,
  signatureText: string | undefined,
  nowMs: number = Date.now(),
): FileSignatureCheck {
  if (!expiresText || !/^\d{1,12}$/.test(expiresText) || !signatureText) {
    return { ok: false, reason: "invalid" };
  }
  if (!/^[\w-]{43}$/.test(signatureText)) return { ok: false, reason: "invalid" };
  const expires = Number(expiresText);
  const given = Buffer.from(signatureText, "base64url");
  const valid = currentSecrets().some((secret) => {
    const expected = mac(secret, key, expires);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid) return { ok: false, reason: "invalid" };
  if (expires * 1000 <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, expires };
}
