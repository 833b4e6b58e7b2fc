/**
 * Pieces of JSON text for the request log line, each equal to `JSON.stringify` of its value
 * (json-text.test.ts proves it over hostile values) and cheaper for the values a log line
 * usually holds: strings that need no escaping and durations rounded to the microsecond.
 */

// What JSON.stringify escapes in a string: `"`, `\` and control characters; and surrogates,
// since a lone one is escaped (`\ud800`) while a pair is not: telling them apart is left to
// JSON.stringify itself.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`: the text in quotes when nothing in it needs escaping (a regular
 * expression test costs about half of JSON.stringify's copy), else JSON.stringify's own answer.
 *
 * @example
 * jsonString('GET /a"b'); // '"GET /a\\"b"'
 */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * `JSON.stringify(text)` without its quotes: the text itself when nothing in it needs escaping
 * (nothing is allocated), for a template that writes the quotes around it. Texts written side
 * by side with a character between them (`"GET /a 200"`) escape as their concatenation does.
 *
 * @example
 * `"path":"${jsonStringContent(path)}"`
 */
export function jsonStringContent(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}

/**
 * `JSON.stringify(Math.round(ms * 1000) / 1000)`: milliseconds to the microsecond. Printing a
 * fraction costs V8 about 110 ns (the shortest round-trip digits); the whole microseconds are
 * an integer, printed in about 40 ns with the point put in by hand. Exact because a decimal
 * of at most 15 significant digits is what its nearest double prints as.
 *
 * @example
 * jsonMilliseconds(1.23449); // "1.234"
 */
export function jsonMilliseconds(ms: number): string {
  const micros = Math.round(ms * 1000);
  // NaN, negative or enormous durations: JSON.stringify's own answer (null, exponents).
  if (!(micros >= 0 && micros < 1e15)) return JSON.stringify(micros / 1000);
  const whole = Math.floor(micros / 1000);
  const fraction = micros - whole * 1000;
  if (fraction === 0) return `${whole}`;
  if (fraction % 10 !== 0) {
    return `${whole}.${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}`;
  }
  if (fraction % 100 !== 0) return `${whole}.${fraction < 100 ? "0" : ""}${fraction / 10}`;
  return `${whole}.${fraction / 100}`;
}

/**
 * `JSON.stringify(n)` of a number: its shortest digits when finite, `null` when not.
 *
 * @example
 * jsonNumber(200); // "200"
 */
export function jsonNumber(n: number): string {
  return Number.isFinite(n) ? `${n}` : "null";
}
