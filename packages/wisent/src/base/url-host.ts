import { domainToASCII } from "node:url";

/**
 * Whether the URL standard accepts `host` (a Host header's value: a name or address, with an
 * optional port) as the host of an `http:` URL. Node's parser decides, and then every `xn--`
 * label is checked as the standard's domain-to-ASCII does (UTS #46 with invalid Punycode not
 * ignored): the rest of the label must be Punycode for a non-ASCII label that encodes back to
 * it. Node's parser leaves those labels unchecked since Node 24 (its ada 3): `xn--zz` (no
 * Punycode) and `a.xn--` (an empty one) parse there, though the standard refuses them.
 *
 * Not cached: callers keep their verdicts per Host value (`BoundedMemo`), since a request's Host
 * repeats.
 *
 * @example
 * urlStandardAcceptsHost("xn--mnchen-3ya.de:3000"); // true (münchen.de)
 * urlStandardAcceptsHost("xn--zz"); // false
 */
export function urlStandardAcceptsHost(host: string): boolean {
  const url = URL.parse(`http://${host}/`);
  if (url === null) return false;
  const name = url.hostname;
  if (!name.includes("xn--")) return true;
  return name.split(".").every((label) => !label.startsWith("xn--") || isPunycodeLabel(label));
}

/** A lower-case `xn--` label: valid Punycode, for a non-ASCII label that encodes back to it. */
function isPunycodeLabel(label: string): boolean {
  const decoded = decodePunycode(label.slice(4));
  if (decoded === undefined || !NON_ASCII.test(decoded)) return false;
  // Encoding back through the standard's mapping refuses what UTS #46 does not allow in a
  // label (unassigned, disallowed or mapped code points, a form that is not NFC).
  return domainToASCII(decoded) === label;
}

const NON_ASCII = /[^\0-\x7f]/;

// RFC 3492 (Punycode) parameters.
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_INT = 0x7fffffff;

/**
 * RFC 3492's decoding (section 6.2), or undefined where it fails. Written here because Node's
 * own `punycode` module is deprecated and the npm package of that name is shadowed by it.
 */
function decodePunycode(input: string): string | undefined {
  const delimiter = Math.max(input.lastIndexOf("-"), 0);
  const output: number[] = [];
  for (let j = 0; j < delimiter; j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = INITIAL_N;
  let i = 0;
  let bias = INITIAL_BIAS;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length; ) {
    const previous = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) return undefined;
      const digit = digitOf(input.charCodeAt(index++));
      if (digit >= BASE || digit > Math.floor((MAX_INT - i) / w)) return undefined;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      if (w > Math.floor(MAX_INT / (BASE - t))) return undefined;
      w *= BASE - t;
    }
    const length = output.length + 1;
    bias = adapt(i - previous, length, previous === 0);
    if (Math.floor(i / length) > MAX_INT - n) return undefined;
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22; // 0-9: 26-35
  if (code >= 0x61 && code <= 0x7a) return code - 0x61; // a-z: 0-25
  if (code >= 0x41 && code <= 0x5a) return code - 0x41; // A-Z: 0-25
  return BASE;
}

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  for (; d > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) d = Math.floor(d / (BASE - T_MIN));
  return Math.floor(k + ((BASE - T_MIN + 1) * d) / (d + SKEW));
}
