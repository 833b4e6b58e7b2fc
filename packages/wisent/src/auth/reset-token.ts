import { createHmac, timingSafeEqual } from "node:crypto";
import { resolveSessionPasswords } from "../middleware/session/session-secrets.js";

/** How long a password reset link works: 15 minutes. */
export const RESET_TOKEN_SECONDS = 15 * 60;

/** What a reset token is bound to: the user's id and their password hash as it is now. */
export interface ResettableUser {
  readonly id: string;
  readonly password_digest: string;
}

/** Options of {@link PasswordResetTokens}. */
export interface PasswordResetTokenOptions {
  /** The signing secret; default the session secret (`SESSION_SECRET`, as `session()` resolves it). */
  readonly secret?: string;
  /** Lifetime in seconds; default {@link RESET_TOKEN_SECONDS}. */
  readonly seconds?: number;
  /** The clock, in milliseconds (tests pass their own). */
  readonly now?: () => number;
}

/**
 * Signed, expiring, single-use password reset tokens, stored nowhere: `<user id>.<expiry>.<mac>`
 * where the MAC is an HMAC-SHA256 over the id, the expiry and the user's current password hash.
 * Setting a new password changes the hash, so a used token stops matching: single use without
 * a table of tokens.
 *
 * @example
 * const tokens = new PasswordResetTokens();
 * const token = tokens.issue(user); // in the mail's link
 * const id = tokens.userId(token); // undefined when malformed or expired
 * const user = id && (await User.find(tx, id));
 * if (user && tokens.verify(token, user)) { ... }
 */
export class PasswordResetTokens {
  readonly #secret: () => string;
  readonly #seconds: number;
  readonly #now: () => number;

  /**
   * @param options - the signing `secret` (default the session secret, read on first use), the
   *   lifetime in `seconds` and the clock
   */
  constructor(options: PasswordResetTokenOptions = {}) {
    const given = options.secret;
    let resolved: string | undefined;
    // Resolved on first use, so declaring the tokens reads no secret at import time.
    this.#secret = () => {
      resolved ??= given ?? resolveSessionPasswords()[0]!.secret;
      return resolved;
    };
    this.#seconds = options.seconds ?? RESET_TOKEN_SECONDS;
    this.#now = options.now ?? Date.now;
  }

  #mac(id: string, expires: string, digest: string): Buffer {
    return createHmac("sha256", `wisent password reset\0${this.#secret()}`)
      .update(`${id}\0${expires}\0${digest}`)
      .digest();
  }

  /**
   * A token for `user`, working for the configured lifetime or until the password changes.
   * @param user - the user's `id` and current `password_digest`
   * @returns the token, URL-safe, for the reset link
   * @throws WisentError `E_CONFIG_INVALID` when no `secret` is given and the session secret is
   *   missing (outside development and test) or shorter than 32 characters
   */
  issue(user: ResettableUser): string {
    const expires = Math.floor(this.#now() / 1000 + this.#seconds).toString(36);
    const mac = this.#mac(user.id, expires, user.password_digest).toString("base64url");
    return `${Buffer.from(user.id).toString("base64url")}.${expires}.${mac}`;
  }

  /**
   * The user id a well-formed, unexpired token names (not yet verified: call `verify` with the
   * user it names).
   * @param token - the token from the link
   * @returns the user id, or undefined when the token is malformed or expired
   */
  userId(token: string): string | undefined {
    const parts = /^([\w-]{1,200})\.([0-9a-z]{1,12})\.([\w-]{43})$/.exec(token);
    if (!parts) return undefined;
    if (Number.parseInt(parts[2]!, 36) * 1000 <= this.#now()) return undefined;
    return Buffer.from(parts[1]!, "base64url").toString();
  }

  /**
   * Whether `token` was issued for `user` as they are now, and has not expired.
   * @param token - the token from the link
   * @param user - the user the token names, as stored now
   * @returns true when the token is valid for this user and password (compared in constant time)
   * @throws WisentError `E_CONFIG_INVALID` as `issue` does
   */
  verify(token: string, user: ResettableUser): boolean {
    if (this.userId(token) !== user.id) return false;
    const [, expires, mac] = token.split(".");
    const expected = this.#mac(user.id, expires!, user.password_digest);
    const given = Buffer.from(mac!, "base64url");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
