import { isAcronym } from "./acronyms.js";
import { splitWords } from "./words.js";

const NOT_ALNUM = /[^\p{L}\p{N}]/gu;

/** A word without its punctuation (`{widget` -> `widget`). */
function bare(word: string): string {
  return word.replace(NOT_ALNUM, "");
}

/** First character upper-cased, the rest kept as is. */
function capitalize(word: string): string {
  const [first = "", ...rest] = Array.from(word);
  return first.toUpperCase() + rest.join("");
}

/**
 * camelCase as flect does it: the first word lower-cased, each later word capitalised, known
 * acronyms fully upper-cased when not first, punctuation dropped.
 * @example camelize("widget_id") // "widgetID"
 * @example camelize("APIKeys") // "apiKeys"
 */
export function camelize(input: string): string {
  return splitWords(input)
    .map((word, index) => {
      const b = bare(word);
      return index === 0 ? b.toLowerCase() : capitalize(b);
    })
    .join("");
}

/**
 * PascalCase: like {@link camelize}, but the first word is capitalised too (fully, if it is an
 * acronym).
 * @example pascalize("user_profile") // "UserProfile"
 * @example pascalize("api_key") // "APIKey"
 */
export function pascalize(input: string): string {
  return splitWords(input)
    .map((word, index) => {
      const b = bare(word);
      if (index > 0) return capitalize(b);
      return isAcronym(b) ? b.toUpperCase() : capitalize(b.toLowerCase());
    })
    .join("");
}

/**
 * snake_case: words without punctuation, lower-cased, joined by `_`.
 * @example underscore("APIKeys") // "api_keys"
 * @example underscore("user-profile") // "user_profile"
 */
export function underscore(input: string): string {
  return splitWords(input)
    .map(bare)
    .filter((w) => w !== "")
    .join("_")
    .toLowerCase();
}

/**
 * Words for people to read: each capitalised (acronyms upper-cased), joined by spaces.
 * @example titleize("user_profile") // "User Profile"
 * @example titleize("api_key") // "API Key"
 */
export function titleize(input: string): string {
  return splitWords(input)
    .map(bare)
    .filter((w) => w !== "")
    .map((w) => (isAcronym(w) ? w.toUpperCase() : capitalize(w)))
    .join(" ");
}
