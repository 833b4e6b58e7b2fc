import { afterEach, describe, expect, it } from "vitest";
import { database, poolSizeOf } from "./database.js";

const saved = process.env.POOL_SIZE;
afterEach(() => {
  if (saved === undefined) delete process.env.POOL_SIZE;
  else process.env.POOL_SIZE = saved;
});

describe("the pool size", () => {
  it("is the option, else POOL_SIZE, else 10", () => {
    delete process.env.POOL_SIZE;
    expect(poolSizeOf({})).toBe(10);
    process.env.POOL_SIZE = " 3 ";
    expect(poolSizeOf({})).toBe(3);
    expect(poolSizeOf({ poolSize: 5 })).toBe(5);
  });

  it.each(["0", "abc", "1.5", "1001", "-2"])("refuses POOL_SIZE=%s, naming it", (value) => {
    process.env.POOL_SIZE = value;
    expect(() => poolSizeOf({})).toThrow(
      `POOL_SIZE must be a whole number from 1 to 1000, got ${JSON.stringify(value)}`,
    );
  });

  it("refuses a bad option by its name, and a server database names the URL too", () => {
    expect(() => poolSizeOf({ poolSize: 0 })).toThrow("poolSize must be a whole number");
    process.env.POOL_SIZE = "many";
    expect(() => database("postgres://app:secret@127.0.0.1:1/shop")).toThrow(
      'cannot open database postgres://app:****@127.0.0.1:1/shop: POOL_SIZE must be a whole number from 1 to 1000, got "many"',
    );
  });
});
