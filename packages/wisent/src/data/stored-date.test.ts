import pg from "pg";
import { describe, expect, it } from "vitest";
import { formatIso, postgresTimestamptz, StoredDate, storedDateFrom } from "./stored-date.js";

/** Numbers in [0, 1) from a linear congruential generator: the same cases every run. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const EDGES = [
  0,
  -1,
  951_782_400_000, // 2000-02-29
  -2_208_988_800_000, // 1900-01-01
  -62_167_219_200_000, // 0000-01-01
  253_402_300_799_999, // 9999-12-31T23:59:59.999Z
  1_709_208_000_123, // 2024-02-29T12:00:00.123Z
  4_107_456_000_000, // 2100-02-28
];

describe("formatIso", () => {
  it("matches Date's toISOString for years 0000-9999", () => {
    const random = seededRandom(42);
    const times = [...EDGES];
    for (let i = 0; i < 20_000; i++)
      times.push(Math.floor((random() * 2 - 1) * 62_000_000_000_000));
    for (const time of times) {
      const iso = new Date(time).toISOString();
      expect(formatIso(time)).toBe(iso);
      expect(storedDateFrom(iso).getTime()).toBe(time);
    }
  });

  it("leaves extended years and invalid times to Date", () => {
    expect(formatIso(-62_167_219_200_001)).toBeUndefined();
    expect(formatIso(253_402_300_800_000)).toBeUndefined();
    expect(formatIso(Number.NaN)).toBeUndefined();
  });
});

describe("storedDateFrom", () => {
  it.each([
    "2024-05-01T12:34:56.789Z",
    "1999-12-31T23:59:59.999Z",
    "0050-01-01T00:00:00.000Z",
    "2024-02-29T23:59:59.999Z",
    "2024-12-31T00:00:00.000Z",
    "2024-05-01 12:34:56",
    "2024-05-01T12:34:56Z",
    "2024-05-01T12:34:56.789+02:00",
  ])("reads %s as Date.parse does", (text) => {
    const date = storedDateFrom(text);
    expect(date).toBeInstanceOf(Date);
    expect(date.getTime()).toBe(Date.parse(text));
    expect(date.toISOString()).toBe(new Date(text).toISOString());
    expect(JSON.stringify({ at: date })).toBe(JSON.stringify({ at: new Date(text) }));
  });

  it.each([
    "2024-13-01T00:00:00.000Z",
    "2024-02-30T00:00:00.000Z",
    "2023-02-29T00:00:00.000Z",
    "2024-04-31T00:00:00.000Z",
    "2024-01-01T24:00:00.000Z",
    "2024-01-01T23:60:00.000Z",
    "2024-0x-01T00:00:00.000Z",
    "2024-01-01T00:00:00.0-0Z",
  ])("does not roll %s over into another day", (text) => {
    expect(storedDateFrom(text).getTime()).toEqual(new Date(text).getTime());
  });

  it("gives an Invalid Date for text that is no date", () => {
    expect(Number.isNaN(storedDateFrom("not a date").getTime())).toBe(true);
    expect(Number.isNaN(storedDateFrom("").getTime())).toBe(true);
  });

  it("gives a new Date for every read, the same text twice in a row included", () => {
    const text = "2024-05-01T12:34:56.789Z";
    const created = storedDateFrom(text);
    const updated = storedDateFrom(text);
    expect(updated).not.toBe(created);
    expect([created.getTime(), updated.getTime()]).toEqual([Date.parse(text), Date.parse(text)]);
    updated.setUTCFullYear(2030);
    expect(created.toISOString()).toBe(text);
    expect(storedDateFrom(text).toISOString()).toBe(text);
    // After a text that is no date, the next reads are their own.
    expect(Number.isNaN(storedDateFrom("nope").getTime())).toBe(true);
    expect(Number.isNaN(storedDateFrom("nope").getTime())).toBe(true);
    expect(storedDateFrom("2024-05-02T00:00:00.000Z").getTime()).toBe(Date.UTC(2024, 4, 2));
  });
});

describe("StoredDate", () => {
  it("is a Date equal to a plain one, and formats from its time once changed", () => {
    const date = new StoredDate(Date.UTC(2024, 4, 1), "2024-05-01T00:00:00.000Z");
    expect(date).toEqual(new Date("2024-05-01T00:00:00.000Z"));
    date.setUTCFullYear(2025);
    expect(date.toISOString()).toBe("2025-05-01T00:00:00.000Z");
    expect(JSON.stringify(date)).toBe('"2025-05-01T00:00:00.000Z"');
  });
});

describe("postgresTimestamptz", () => {
  it.each([
    ["2024-05-01 12:34:56.789123+00", "2024-05-01T12:34:56.789Z"],
    ["2024-05-01 12:34:56+00", "2024-05-01T12:34:56.000Z"],
    ["2024-05-01 12:34:56.5+00", "2024-05-01T12:34:56.500Z"],
    ["2024-05-01 12:34:56.07+00", "2024-05-01T12:34:56.070Z"],
    ["2020-02-29 23:59:59.999999+05:30", "2020-02-29T18:29:59.999Z"],
    ["2020-02-29 23:59:59-08", "2020-03-01T07:59:59.000Z"],
    ["1000-01-01 00:00:00+00:00:30", "0999-12-31T23:59:30.000Z"],
    ["9999-12-31 23:59:59.999+00", "9999-12-31T23:59:59.999Z"],
  ])("reads %s as %s", (text, iso) => {
    expect(postgresTimestamptz(text)).toBe(Date.parse(iso));
  });

  it.each([
    "infinity",
    "-infinity",
    "0099-01-01 00:00:00+00", // years before 1000: pg's parser
    "2024-05-01 12:34:56+00 BC",
    "2024-05-01 12:34:56.+00",
    "2024-05-01 12:34:56.1234567+00",
    "2024-05-01 12:34:56",
    "2024-05-01 12:34:56+0",
    "2024-05-01 12:34:56+05:3",
    "2024-05-01T12:34:56+00",
    "2023-02-29 00:00:00+00",
    "2024-13-01 00:00:00+00",
    "2024-05-01 24:00:00+00",
    "2024-05-01 12:60:00+00",
    "2024-05-01 12:34:56+05:60",
    "Wed May 01 12:34:56.789 2024 UTC",
  ])("leaves %s to pg's parser", (text) => {
    expect(postgresTimestamptz(text)).toBeUndefined();
  });

  it("agrees with pg's parser on timestamps in every form PostgreSQL sends", () => {
    const TIMESTAMPTZ = 1184;
    const pgParse = pg.types.getTypeParser(TIMESTAMPTZ, "text");
    const random = seededRandom(7);
    const two = (n: number) => String(n).padStart(2, "0");
    for (let i = 0; i < 5_000; i++) {
      const utc = new Date(-30_000_000_000_000 + random() * 280_000_000_000_000);
      const offsetMinutes = Math.round((random() * 28 - 14) * 4) * 15;
      const local = new Date(utc.getTime() + offsetMinutes * 60_000);
      const iso = local.toISOString();
      // Digits of a fraction PostgreSQL would print: none for zero, up to six, no trailing zero.
      const micros = String(Math.floor(random() * 1_000_000))
        .padStart(6, "0")
        .replace(/0+$/, "");
      const fraction = micros === "" || random() < 0.2 ? "" : `.${micros}`;
      const sign = offsetMinutes < 0 ? "-" : "+";
      const abs = Math.abs(offsetMinutes);
      const zone = `${sign}${two(Math.floor(abs / 60))}${abs % 60 ? `:${two(abs % 60)}` : ""}`;
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}${zone}`;
      const expected = (pgParse(text) as Date).getTime();
      const ours = postgresTimestamptz(text);
      if (local.getUTCFullYear() < 1000) expect(ours).toBeUndefined();
      else expect([text, ours]).toEqual([text, expected]);
    }
  });
});
