import { createHmac, timingSafeEqual } from "node:crypto";
import { resolveSessionPasswords } from "../middleware/session/session-secrets.js";

/** Options of a kind of signed user token (reset, verification). */
export interface SignedUserTokenOptions {
  /** The signing secret; default the session secret (`SESSION_SECRET`, as `session()` resolves it). */
  readonly secret?: string;
  /** Lifetime in seconds. */
  readonly seconds?: number;
  /** The clock, in milliseconds (tests pass their own). */
  readonly now?: () => number;
}

/**
 * Tokens stored nowhere: `<user id>.<expiry>.<mac>`, the MAC an HMAC-SHA256 over the id, the
 * expiry and a value the token is bound to (a password hash, an email address), keyed by the
 * purpose and the secret, so that a token made for one purpose is worth nothing for another and a
 * changed bound value spends it. Shared by `PasswordResetTokens` and `EmailVerificationTokens`.
 */
export class SignedUserTokens {
  readonly #purpose: string;
  readonly #secret: () => string;
  readonly #seconds: number;
  readonly #now: () => number;

  constructor(purpose: string, seconds: number, options: SignedUserTokenOptions) {
    const given = options.secret;
    let resolved: string | undefined;
    // Resolved on first use, so declaring the tokens reads no secret at import time.
    this.#secret = () => {
      resolved ??= given ?? resolveSessionPasswords()[0]!.secret;
      return resolved;
    };
    this.#purpose = purpose;
    this.#seconds = options.seconds ?? seconds;
    this.#now = options.now ?? Date.now;
  }

  #mac(id: string, expires: string, bound: string): Buffer {
    return createHmac("sha256", `${this.#purpose}\0${this.#secret()}`)
      .update(`${id}\0${expires}\0${bound}`)
      .digest();
  }

  /** A token for the user `id`, bound to `bound`, working for the lifetime. */
  issue(id: string, bound: string): string {
    const expires = Math.floor(this.#now() / 1000 + this.#seconds).toString(36);
    const mac = this.#mac(id, expires, bound).toString("base64url");
    return `${Buffer.from(id).toString("base64url")}.${expires}.${mac}`;
  }

  /** The user id of a well-formed, unexpired token (not yet verified), else undefined. */
  userId(token: string): string | undefined {
    const parts = /^([\w-]{1,200})\.([0-9a-z]{1,12})\.([\w-]{43})$/.exec(token);
    if (!parts) return undefined;
    if (Number.parseInt(parts[2]!, 36) * 1000 <= this.#now()) return undefined;
    return Buffer.from(parts[1]!, "base64url").toString();
  }

  /** Whether `token` was issued for the user `id` bound to `bound`, and has not expired. */
  verify(token: string, id: string, bound: string): boolean {
    if (this.userId(token) !== id) return false;
    const [, expires, mac] = token.split(".");
    const expected = this.#mac(id, expires!, bound);
    const given = Buffer.from(mac!, "base64url");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
