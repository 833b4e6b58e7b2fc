import { fillRandom } from "../crypto/random-bytes.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

let lastMs = 0;
let sequence = 0;

/**
 * A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix milliseconds, then random bits.
 * New rows land at the end of the primary-key index. Ids made in the same millisecond by this
 * process still sort in creation order (a 12-bit counter in `rand_a`).
 *
 * @param now - the time it carries, in epoch milliseconds (default now)
 * @returns the UUID, lower case
 * @example
 * uuidv7(); // "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b"
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  fillRandom(bytes);
  if (now > lastMs) {
    lastMs = now;
    sequence = ((bytes[6]! & 0x07) << 8) | bytes[7]!; // start low so the counter rarely overflows
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | (sequence >>> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  let out = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += "-";
    out += HEX[bytes[i]!];
  }
  return out;
}

/**
 * True for a UUID in its canonical 8-4-4-4-12 hex form (any version, either case).
 * @param value - anything
 * @returns whether it is such a string
 * @example isUuid(c.req.param("widget_id"));
 */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * The lower-case form of a UUID (as ids are stored), or undefined when `text` is none: one pass
 * over the characters, for the id of every show, update and delete request (the regex test and
 * `toLowerCase` together cost four times as much).
 */
export function uuidKey(text: string): string | undefined {
  if (text.length !== 36) return undefined;
  let upper = false;
  for (let i = 0; i < 36; i++) {
    const code = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 45) return undefined;
    } else if (code >= 65 && code <= 70) {
      upper = true;
    } else if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) {
      return undefined;
    }
  }
  return upper ? text.toLowerCase() : text;
}
