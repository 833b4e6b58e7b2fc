import type { Context } from "hono";
import { CSP_NONCE_KEY } from "../base/symbols.js";
import { fillRandom } from "../crypto/random-bytes.js";

/** Where a request's nonce is kept (a symbol property, as the response-header parts are). */
const NONCE: typeof CSP_NONCE_KEY = CSP_NONCE_KEY;
/** The request's CSP has a nonce, not made yet (see {@link expectCspNonce}). */
const DUE = true;
type WithNonce = Context & { [NONCE]?: string | typeof DUE };

const bytes = Buffer.alloc(16);

/** A fresh nonce: 128 random bits, base64 (CSP3's nonce-source). */
export function newCspNonce(): string {
  fillRandom(bytes);
  return bytes.toString("base64");
}

/** @internal Records the nonce `securityHeaders()` put in this request's Content-Security-Policy. */
export function setCspNonce(c: Context, nonce: string): void {
  (c as WithNonce)[NONCE] = nonce;
}

/**
 * @internal Says this request's Content-Security-Policy has a nonce, made when first asked for
 * ({@link cspNonce}, or the policy of an HTML answer): a JSON answer, whose policy has none,
 * makes none (bench/load/ab-instructions.mjs, JSON show).
 */
export function expectCspNonce(c: Context): void {
  (c as WithNonce)[NONCE] = DUE;
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
  const nonce = (c as WithNonce)[NONCE];
  if (nonce !== DUE) return nonce;
  const made = newCspNonce();
  (c as WithNonce)[NONCE] = made;
  return made;
}
