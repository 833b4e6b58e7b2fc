import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { requireDependency } from "../base/require-dependency.js";

type CommonLanguage = {
  dictionary: Record<string, string[]>;
  adjacencyGraphs: Record<string, Record<string, (string | null)[]>>;
};

let common: CommonLanguage | undefined;
let commonSet: Set<string> | undefined;
let estimator: ZxcvbnFactory | undefined;

/**
 * zxcvbn's data of `@zxcvbn-ts/language-common` (breached passwords, common names and words,
 * keyboard layouts), loaded on first use: bundled with the package, so no check needs the network.
 */
function commonLanguage(): CommonLanguage {
  common ??= requireDependency<CommonLanguage>("@zxcvbn-ts/language-common");
  return common;
}

/** The 49,000 most common passwords of `@zxcvbn-ts/language-common`, lower case. */
function commonPasswords(): Set<string> {
  commonSet ??= new Set(commonLanguage().dictionary["passwords-common"]);
  return commonSet;
}

/**
 * zxcvbn (`@zxcvbn-ts/core`) with the common dictionaries and keyboard layouts, made on first use
 * (about 0.1 s, once per process): it estimates how many guesses a password takes, seeing
 * repeats, sequences, keyboard rows, dates and dictionary words, which a list of passwords cannot.
 * It scores a password's first 64 characters.
 */
function strengthEstimator(): ZxcvbnFactory {
  if (!estimator) {
    const { ZxcvbnFactory: Factory } =
      requireDependency<typeof import("@zxcvbn-ts/core")>("@zxcvbn-ts/core");
    const language = commonLanguage();
    estimator = new Factory({
      dictionary: { ...language.dictionary },
      graphs: language.adjacencyGraphs,
      // It runs on the event loop and its work grows fast with the length and with l33t
      // variants: a 256-character password took up to a second. The first 64 characters, with
      // at most 10 l33t substitutions tried, take tens of milliseconds at worst and say enough.
      maxLength: 64,
      l33tMaxSubstitutions: 10,
    });
  }
  return estimator;
}

/**
 * The lowest zxcvbn score (0 to 4) a new password may have: 3, "safely unguessable" (more than
 * 10^8 guesses; 4 is more than 10^10), zxcvbn's own advice for a password stored as a slow hash.
 */
export const PASSWORD_MIN_SCORE = 3;

/** Why zxcvbn rates a password low, by its warning, in the words of a 422's message. */
const REASONS: Readonly<Record<string, string>> = {
  simpleRepeat: "it repeats one character",
  extendedRepeat: "it repeats a short pattern",
  sequences: "it is a sequence such as abcd or 1234",
  straightRow: "it is a row of keys on the keyboard",
  keyPattern: "it is a pattern of keys on the keyboard",
  recentYears: "it is mostly a recent year",
  dates: "it is mostly a date",
  topTen: "it is one of the most used passwords",
  topHundred: "it is one of the most used passwords",
  common: "it is a commonly used password",
  similarToCommon: "it is close to a commonly used password",
  wordByItself: "it is a single common word",
  namesByThemselves: "it is mostly names",
  commonNames: "it is mostly common names",
  userInputs: "it is built from the email address",
};

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
 * most common passwords (`password1234`, `qwerty123456`), the account's own email or its name
 * part (`ada@example.com`, `ada.lovelace` for `ada.lovelace@example.com`), or easy to guess for
 * zxcvbn (a score below `PASSWORD_MIN_SCORE`: `aaaaaaaaaaaa`, twelve spaces,
 * `abcdefghijkl`, `1q2w3e4r5t6y`), saying why. The message is meant for the `password` field of
 * a 422.
 *
 * @param password - the new password
 * @param email - the account's email, when known
 * @returns the message for the `password` field, or undefined when the password is fine
 * @example
 * weakPasswordProblem("password1234"); // "Password is too common: choose one that is harder to guess."
 * weakPasswordProblem("ada@example.com", "Ada@example.com"); // "Password must not be the email address."
 * weakPasswordProblem("abcdefghijkl"); // "Password is too easy to guess: it is a sequence such as abcd or 1234. ..."
 */
export function weakPasswordProblem(password: string, email?: string): string | undefined {
  const given = password.normalize("NFC").trim().toLowerCase();
  const address = email?.normalize("NFC").trim().toLowerCase();
  const name = address?.split("@", 1)[0];
  if (address && (given === address || given === name)) {
    return "Password must not be the email address.";
  }
  if (isCommonPassword(given)) {
    return "Password is too common: choose one that is harder to guess.";
  }
  const inputs = address && name ? [address, name] : [];
  const { score, feedback } = strengthEstimator().check(password.normalize("NFC"), inputs);
  if (score >= PASSWORD_MIN_SCORE) return undefined;
  const reason = (feedback.warning && REASONS[feedback.warning]) || "it is short and predictable";
  return `Password is too easy to guess: ${reason}. Choose a longer one, such as a few unrelated words.`;
}
