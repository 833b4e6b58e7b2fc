import { isAcronym } from "./acronyms.js";

/** One word of an identifier and where it sits in the original text. */
export interface WordSpan {
  /** The word as found, except that a known acronym is upper-cased (`id` -> `ID`). */
  readonly word: string;
  /** Index of the word's first character in the input. */
  readonly start: number;
  /** Index just past the word's last character in the input. */
  readonly end: number;
}

const SEPARATOR = /[_:\-/\s]/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
// Letters, digits and punctuation stay inside a word (flect keeps `{`, `}` and `.` so that route
// names such as `foozWidgetIdPath` come out as Buffalo's); any other symbol ends the word.
const WORD_CHAR = /[\p{L}\p{N}\p{P}`]/u;

/**
 * Splits an identifier into words, with their positions, as flect does: at `_`, space, `:`, `-`,
 * `/`, and lower->Upper transitions. A known acronym written in one case is upper-cased (`id`). A run of capitals stays together as an acronym; when the run
 * is followed by lower-case letters, its last capital starts the next word (`HTMLPages` -> HTML,
 * Pages), except for a plural `s` (`UserIDs` -> User, IDs).
 * @example wordSpans("APIKeys").map((s) => s.word) // ["API", "Keys"]
 */
export function wordSpans(input: string): WordSpan[] {
  const chars = Array.from(input);
  const spans: WordSpan[] = [];
  let start = -1;
  let offset = 0;
  const offsets: number[] = [];
  for (const c of chars) {
    offsets.push(offset);
    offset += c.length;
  }
  offsets.push(offset);

  const flush = (endIndex: number): void => {
    if (start < 0) return;
    const raw = input.slice(offsets[start], offsets[endIndex]);
    spans.push({
      word: isAcronym(raw) && isSingleCase(raw) ? raw.toUpperCase() : raw,
      start: offsets[start]!,
      end: offsets[endIndex]!,
    });
    start = -1;
  };

  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (SEPARATOR.test(c) || !WORD_CHAR.test(c)) {
      flush(i);
      continue;
    }
    if (start >= 0 && UPPER.test(c) && startsNewWord(chars, i)) flush(i);
    if (start < 0) start = i;
  }
  flush(chars.length);
  return spans;
}

/**
 * `id` and `ID` are the acronym, `Id` is a word someone already cased: keeping it is what makes
 * `camelize("foozWidgetId")` stay `foozWidgetId`, as in Buffalo's route names.
 */
function isSingleCase(word: string): boolean {
  return word === word.toLowerCase() || word === word.toUpperCase();
}

/** Whether the capital at `i` (inside a word) begins a new word. */
function startsNewWord(chars: string[], i: number): boolean {
  const prev = chars[i - 1]!;
  if (!UPPER.test(prev)) return true;
  // Inside a run of capitals: split before the last capital when lower-case letters follow it,
  // unless they are only a plural "s" ("IDs", "URLs").
  const next = chars[i + 1];
  if (next === undefined || !LOWER.test(next)) return false;
  const after = chars[i + 2];
  const pluralS = next === "s" && (after === undefined || !LOWER.test(after));
  return !pluralS;
}

/**
 * The words of an identifier (see {@link wordSpans}).
 * @example splitWords("user-profile") // ["user", "profile"]
 */
export function splitWords(input: string): string[] {
  return wordSpans(input).map((s) => s.word);
}
