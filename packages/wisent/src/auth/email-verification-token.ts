import { SignedUserTokens } from "./signed-user-token.js";

/** How long an email verification link works: 24 hours. */
export const EMAIL_VERIFICATION_SECONDS = 24 * 3600;

/** What a verification token is bound to: the user's id and their email as it is now. */
export interface VerifiableUser {
  readonly id: string;
  readonly email: string;
}

/** Options of {@link EmailVerificationTokens}. */
export interface EmailVerificationTokenOptions {
  /** The signing secret; default the session secret (`SESSION_SECRET`, as `session()` resolves it). */
  readonly secret?: string;
  /** Lifetime in seconds; default {@link EMAIL_VERIFICATION_SECONDS}. */
  readonly seconds?: number;
  /** The clock, in milliseconds (tests pass their own). */
  readonly now?: () => number;
}

/**
 * Signed, expiring email verification tokens, stored nowhere: `<user id>.<expiry>.<mac>` where the
 * MAC is an HMAC-SHA256 over the id, the expiry, the user's email as it is now and the address to
 * verify (the same one at sign-up, the new one at a change of email). A change of the account's
 * email spends every token issued before it; a password reset token is worth nothing here (and
 * the other way round).
 *
 * @example
 * const tokens = new EmailVerificationTokens();
 * const token = tokens.issue(user); // verifies user.email; tokens.issue(user, newEmail) a new one
 * const id = tokens.userId(token); // undefined when malformed or expired
 * const user = id && (await User.find(tx, id));
 * if (user && tokens.verify(token, user, user.email)) { ... }
 */
export class EmailVerificationTokens {
  readonly #tokens: SignedUserTokens;

  /**
   * @param options - the signing `secret` (default the session secret, read on first use), the
   *   lifetime in `seconds` and the clock
   */
  constructor(options: EmailVerificationTokenOptions = {}) {
    this.#tokens = new SignedUserTokens(
      "wisent email verification",
      EMAIL_VERIFICATION_SECONDS,
      options,
    );
  }

  /**
   * A token verifying `address` for `user`, working for the lifetime or until the user's email
   * changes.
   * @param user - the user's `id` and current `email`
   * @param address - the address to verify (default the user's email)
   * @returns the token, URL-safe, for the verification link
   * @throws WisentError `E_CONFIG_INVALID` when no `secret` is given and the session secret is
   *   missing (outside development and test) or shorter than 32 characters
   */
  issue(user: VerifiableUser, address: string = user.email): string {
    return this.#tokens.issue(user.id, `${user.email}\0${address}`);
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
   * Whether `token` verifies `address` for `user` as they are now, and has not expired.
   * @param token - the token from the link
   * @param user - the user the token names, as stored now
   * @param address - the address the token should verify
   * @returns true when it does (compared in constant time)
   * @throws WisentError `E_CONFIG_INVALID` as `issue` does
   */
  verify(token: string, user: VerifiableUser, address: string): boolean {
    return this.#tokens.verify(token, user.id, `${user.email}\0${address}`);
  }
}
