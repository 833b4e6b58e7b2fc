import { formatIso } from "../base/iso-time.js";

export { formatIso };

/**
 * Dates read from (or made for) the database. V8's `toISOString` costs about 0.8 us, and JSON
 * output calls it for every timestamp: 40 calls for a page of 20 records, more than the query.
 * A StoredDate formats itself once, with plain arithmetic, and remembers the text (or keeps the
 * ISO text it was read from), as long as nobody changes its time.
 */
export class StoredDate extends Date {
  #iso: string | undefined;
  readonly #time: number;

  /**
   * @param time - epoch milliseconds
   * @param iso - this time's ISO text, when already known (as read from SQLite)
   */
  constructor(time: number, iso?: string) {
    super(time);
    this.#time = time;
    this.#iso = iso;
  }

  override toISOString(): string {
    const time = this.getTime();
    if (time !== this.#time) return super.toISOString();
    this.#iso ??= formatIso(time) ?? super.toISOString();
    return this.#iso;
  }

  override toJSON(): string {
    return this.toISOString();
  }
}

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;

/** `text[at..at+count)` as a number when every character is a digit, else -1. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = digit(text, i);
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil, years 0-9999). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * Epoch milliseconds of `YYYY-MM-DDTHH:mm:ss.sssZ` with every field in range, else undefined.
 * Plain arithmetic: about a fifth of `Date.parse`, and it runs for every timestamp read. It
 * keeps its own copy of {@link dateTimeAt}'s checks: calling it cost 1.5% of a SQLite HTML
 * index's instructions (`bench/load/ab-instructions.mjs`, html-index).
 */
function isoTime(text: string): number | undefined {
  if (
    text.length !== 24 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 ||
    text.charCodeAt(23) !== 90
  ) {
    return undefined;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hours = digits(text, 11, 2);
  const minutes = digits(text, 14, 2);
  const seconds = digits(text, 17, 2);
  const millis = digits(text, 20, 3);
  // A non-digit reads as -1 and fails these checks too.
  if (year < 0 || month < 1 || month > 12 || day < 1 || millis < 0) return undefined;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) {
    return undefined;
  }
  const monthDays = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  // Date.parse gives NaN for a day past the month's end: leave those to it, not roll them over.
  if (day > monthDays) return undefined;
  return (
    daysFromCivil(year, month, day) * 86_400_000 +
    hours * 3_600_000 +
    minutes * 60_000 +
    seconds * 1000 +
    millis
  );
}

/**
 * Epoch milliseconds, plus `millis`, of the UTC date and time written `YYYY-MM-DD?HH:mm:ss` at
 * the start of `text`, with every field in range (a year of four digits), else undefined.
 */
function dateTimeAt(text: string, millis: number): number | undefined {
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hours = digits(text, 11, 2);
  const minutes = digits(text, 14, 2);
  const seconds = digits(text, 17, 2);
  // A non-digit reads as -1 and fails these checks too.
  if (year < 0 || month < 1 || month > 12 || day < 1) return undefined;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) {
    return undefined;
  }
  const monthDays = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  // Date.parse gives NaN for a day past the month's end: leave those to it, not roll them over.
  if (day > monthDays) return undefined;
  return (
    daysFromCivil(year, month, day) * 86_400_000 +
    hours * 3_600_000 +
    minutes * 60_000 +
    seconds * 1000 +
    millis
  );
}

let lastText: string | undefined;
let lastTime = 0;

/**
 * The StoredDate of a timestamp's text: ISO (`2024-05-01T12:34:56.789Z`, as Wisent stores them
 * in SQLite) is read digit by digit and kept as the date's ISO text; anything else goes through
 * `Date.parse` (an unparseable text gives an Invalid Date, as `new Date(text)` would).
 * @param text - a timestamp as a database returns it
 * @returns the date (a StoredDate for ISO text); never throws
 */
export function storedDateFrom(text: string): Date {
  // A record's two timestamps are read one after the other and are the same text until it is
  // first updated: the second is then made without parsing.
  if (text === lastText) return new StoredDate(lastTime, text);
  const iso = isoTime(text);
  if (iso !== undefined) {
    lastText = text;
    lastTime = iso;
    return new StoredDate(iso, text);
  }
  const time = Date.parse(text);
  return Number.isNaN(time) ? new Date(Number.NaN) : new StoredDate(time);
}

/** Milliseconds of a UTC offset's text at `at` (`+05`, `-08:00`, `+00:00:30`), else undefined. */
function offsetAt(text: string, at: number): number | undefined {
  const sign = text.charCodeAt(at) === 45 ? -1 : text.charCodeAt(at) === 43 ? 1 : 0;
  const length = text.length - at;
  if (sign === 0 || (length !== 3 && length !== 6 && length !== 9)) return undefined;
  let seconds = 0;
  for (let i = at + 1, unit = 3600; i < text.length; i += 3, unit /= 60) {
    if (i > at + 1 && text.charCodeAt(i - 1) !== 58) return undefined;
    const part = digits(text, i, 2);
    if (part < 0 || part > 59) return undefined;
    seconds += part * unit;
  }
  return sign * seconds * 1000;
}

/**
 * Epoch milliseconds of a PostgreSQL `timestamptz` as it sends it (DateStyle ISO:
 * `2024-05-01 12:34:56.789123+00`, a fraction of up to six digits or none, an offset of hours and
 * maybe minutes and seconds) for years 1000-9999; undefined for anything else (BC, infinity,
 * another DateStyle), which pg's own parser then reads. The fraction is cut to milliseconds, as
 * a Date holds them. Plain arithmetic: pg's regular-expression parser and the Date it made were
 * 2 us a timestamp, 40 of a JSON list's 600 us (`PROFILE_DB=postgres bench/load/profile.mjs`).
 */
export function postgresTimestamptz(text: string): number | undefined {
  if (
    text.length < 22 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  ) {
    return undefined;
  }
  let at = 19;
  let millis = 0;
  if (text.charCodeAt(at) === 46) {
    let count = 0;
    for (at++; count < 6 && at < text.length; at++, count++) {
      const d = digit(text, at);
      if (d < 0 || d > 9) break;
      if (count < 3) millis += d * 10 ** (2 - count);
    }
    if (count === 0) return undefined;
  }
  const offset = offsetAt(text, at);
  // Years before 1000 are pg's: it reads years 0-99 apart from Date's 1900-1999.
  if (offset === undefined || digits(text, 0, 4) < 1000) return undefined;
  const time = dateTimeAt(text, millis);
  return time === undefined ? undefined : time - offset;
}
