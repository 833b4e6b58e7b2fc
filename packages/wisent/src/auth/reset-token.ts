import { SignedUserTokens } from "./signed-user-token.js";

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
  readonly #tokens: SignedUserTokens;

  /**
   * @param options - the signing `secret` (default the session secret, read on first use), the
   *   lifetime in `seconds` and the clock
   */
  constructor(options: PasswordResetTokenOptions = {}) {
    this.#tokens = new SignedUserTokens("wisent password reset", RESET_TOKEN_SECONDS, options);
  }

  /**
   * A token for `user`, working for the configured lifetime or until the password changes.
   * @param user - the user's `id` and current `password_digest`
   * @returns the token, URL-safe, for the reset link
   * @throws WisentError `E_CONFIG_INVALID` when no `secret` is given and the session secret is
   *   missing (outside development and test) or shorter than 32 characters
   */
  issue(user: ResettableUser): string {
    return this.#tokens.issue(user.id, user.password_digest);
  }

  /**
   * The user id a well-formed, unexpired token names (not yet verified: call `verify` with the
   * user it names).
   * @param token - the token from the link
   * @returns the user id, or undefined when the token is malformed or expired
   */
  userId(token: string): string | undefined {
    return this.#tokens.userId(token);
  }

  /**
   * Whether `token` was issued for `user` as they are now, and has not expired.
   * @param token - the token from the link
   * @param user - the user the token names, as stored now
   * @returns true when the token is valid for this user and password (compared in constant time)
   * @throws WisentError `E_CONFIG_INVALID` as `issue` does
   */
  verify(token: string, user: ResettableUser): boolean {
    return this.#tokens.verify(token, user.id, user.password_digest);
  }
}
