/** Words that start with a vowel letter but a consonant sound ("a user", "a one-off", "a euro"). */
const CONSONANT_SOUND =
  /^(u[bcfhjkqrstn][aeiou]|uni|use|usu|uti|ura|ure|uro|eu|ewe|one|once|ouija)/i;
/** Words that start with a silent h ("an hour", "an honest"). */
const SILENT_H = /^(hour|honest|honor|honour|heir)/i;
/** Letters whose name starts with a vowel sound, for an acronym read letter by letter ("an SQL"). */
const VOWEL_LETTER_NAMES = "AEFHILMNORSX";

/**
 * The indefinite article of a phrase, by the sound of its first word: `an` before a vowel sound
 * (`an author`, `an hour`, `an SQL table`), else `a` (`a widget`, `a user`, `a euro`).
 *
 * @example
 * withArticle("author"); // "an author"
 * withArticle("user profile"); // "a user profile"
 */
export function withArticle(phrase: string): string {
  return `${indefiniteArticle(phrase)} ${phrase}`;
}

/** `a` or `an` for {@link withArticle}. */
export function indefiniteArticle(phrase: string): "a" | "an" {
  const word = phrase.trim().split(/[\s_-]/)[0] ?? "";
  if (word === "") return "a";
  // An acronym is read letter by letter: "an FAQ", "a UUID".
  if (word.length > 1 && word === word.toUpperCase() && /^[A-Z]+$/.test(word)) {
    return VOWEL_LETTER_NAMES.includes(word[0]!) ? "an" : "a";
  }
  if (SILENT_H.test(word)) return "an";
  if (CONSONANT_SOUND.test(word)) return "a";
  return /^[aeiou]/i.test(word) ? "an" : "a";
}
