import type { Context } from "hono";
import { CSP_NONCE_KEY } from "../base/symbols.js";
import { fillRandom } from "../crypto/random-bytes.js";

/** Where a request's nonce is kept (a symbol property, as the response-header parts are). */
const NONCE: typeof CSP_NONCE_KEY = CSP_NONCE_KEY;
type WithNonce = Context & { [NONCE]?: string };

const bytes = new Uint8Array(16);

/** A fresh nonce: 128 random bits, base64 (CSP3's nonce-source). */
export function newCspNonce(): string {
  fillRandom(bytes);
  return Buffer.from(bytes).toString("base64");
}

/** @internal Records the nonce `securityHeaders()` put in this request's Content-Security-Policy. */
export function setCspNonce(c: Context, nonce: string): void {
  (c as WithNonce)[NONCE] = nonce;
}

/**
 * This request's Content-Security-Policy nonce (set by `securityHeaders()`), for an inline
 * `<script nonce>` or `<style nonce>`, or undefined when its CSP has none. The layout's
 * `<CspNonceMeta />` hands it to scripts (Turbo and htmx read `<meta name="csp-nonce">`).
 *
 * @param c - the request's context
 * @returns the nonce (base64), or undefined
 * @example
 * <script nonce={cspNonce(usePage().c)}>{rawHtml("console.log('allowed')")}</script>
 */
export function cspNonce(c: Context): string | undefined {
  return (c as WithNonce)[NONCE];
}
