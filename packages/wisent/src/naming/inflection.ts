import pluralizeLibrary from "pluralize";
import { isAcronym } from "./acronyms.js";
import { wordSpans } from "./words.js";

// `pluralize` turns "cookies" into "cooky" (its rule -ies -> -y); these nouns end in -ie.
// The library's rule list is global and later rules win, so this runs once on import.
pluralizeLibrary.addSingularRule(
  /(cook|book|rook|hipp|calor|brown|self|smooth|newb|zomb|goal|pix|good|prair)ies$/i,
  "$1ie",
);

type Inflect = (lowerWord: string) => string;

/**
 * Applies `inflect` to the last word of `input` only, keeping everything before it and the
 * word's capitalisation (`UserProfile` -> `UserProfiles`, `ID` -> `IDs`, `Person` -> `People`).
 */
function inflectLastWord(input: string, inflect: Inflect): string {
  const spans = wordSpans(input);
  const last = spans[spans.length - 1];
  if (last === undefined) return input;
  const original = input.slice(last.start, last.end);
  const lower = original.toLowerCase();
  const result = inflect(lower);
  if (result === lower) return input;
  return input.slice(0, last.start) + restoreCase(original, result) + input.slice(last.end);
}

/** Gives `result` (lower case) the capitalisation of `original`. */
function restoreCase(original: string, result: string): string {
  const allUpper = original.length > 1 && original === original.toUpperCase();
  if (allUpper && !isAcronym(original)) return result.toUpperCase();
  // Keep the original characters over the common prefix ("ID" + "s", "Pe" + "ople", "Key").
  const lower = original.toLowerCase();
  let common = 0;
  while (common < result.length && common < lower.length && result[common] === lower[common]) {
    common++;
  }
  return original.slice(0, common) + result.slice(common);
}

/**
 * Plural of an identifier: only its last word changes, capitalisation is kept.
 * @example pluralize("media_service") // "media_services"
 * @example pluralize("UserProfile") // "UserProfiles"
 * @example pluralize("person") // "people"
 */
export function pluralize(word: string): string {
  return inflectLastWord(word, (w) => pluralizeLibrary.plural(w));
}

/**
 * Singular of an identifier: only its last word changes, capitalisation is kept.
 * @example singularize("APIKeys") // "APIKey"
 * @example singularize("menus") // "menu"
 */
export function singularize(word: string): string {
  return inflectLastWord(word, (w) => pluralizeLibrary.singular(w));
}

/**
 * Whether the last word is the same in singular and plural (`news`, `sheep`, `equipment`).
 * @example isUncountable("news") // true
 */
export function isUncountable(word: string): boolean {
  if (wordSpans(word).length === 0) return false;
  const s = singularize(word);
  return s === word && pluralize(word) === word;
}
