import { requireDependency } from "../base/require-dependency.js";

let common: Set<string> | undefined;

/**
 * The 49,000 most common passwords of `@zxcvbn-ts/language-common` (from breach corpora), lower
 * case, loaded on first use: bundled with the package, so the check needs no network.
 */
function commonPasswords(): Set<string> {
  if (!common) {
    const { dictionary } = requireDependency<{ dictionary: Record<string, string[]> }>(
      "@zxcvbn-ts/language-common",
    );
    common = new Set(dictionary["passwords-common"]);
  }
  return common;
}

/**
 * Whether `password` is one of the most common passwords (case-insensitively).
 * @param password - the password to check
 * @returns true for one of the 49,000 most common passwords
 * @example isCommonPassword("Qwerty123456"); // true
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.normalize("NFC").toLowerCase());
}

/**
 * What is wrong with a new password beyond its length (ASVS 2.1.7), or undefined: one of the
 * most common passwords (`password1234`, `qwerty123456`), or the account's own email or its name
 * part (`ada@example.com`, `ada.lovelace` for `ada.lovelace@example.com`). The message is
 * meant for the `password` field of a 422.
 *
 * @param password - the new password
 * @param email - the account's email, when known
 * @returns the message for the `password` field, or undefined when the password is fine
 * @example
 * weakPasswordProblem("password1234"); // "Password is too common: choose one that is harder to guess."
 * weakPasswordProblem("ada@example.com", "Ada@example.com"); // "Password must not be the email address."
 */
export function weakPasswordProblem(password: string, email?: string): string | undefined {
  const given = password.normalize("NFC").trim().toLowerCase();
  const address = email?.normalize("NFC").trim().toLowerCase();
  if (address && (given === address || given === address.split("@", 1)[0])) {
    return "Password must not be the email address.";
  }
  if (isCommonPassword(given)) {
    return "Password is too common: choose one that is harder to guess.";
  }
  return undefined;
}
