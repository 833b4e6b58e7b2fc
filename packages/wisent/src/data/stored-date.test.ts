import { describe, expect, it } from "vitest";
import { formatIso, StoredDate, storedDateFrom } from "./stored-date.js";

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
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
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
