import { describe, expect, it } from "vitest";
import { chain, chainWith, settle, settleWith } from "./maybe-promise.js";

describe("chain", () => {
  it("runs the next step at once on a ready value", () => {
    expect(chain(2, (n) => n * 3)).toBe(6);
  });

  it("runs the next step once a promise settles", async () => {
    const later = chain(Promise.resolve(2), (n) => n * 3);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(6);
  });
});

describe("settle", () => {
  it("gives a ready value as a resolved promise", async () => {
    const result = settle(() => "now");
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe("now");
  });

  it("passes a promise through", async () => {
    expect(await settle(() => Promise.resolve("later"))).toBe("later");
  });

  it("turns a throw into a rejection instead of throwing", async () => {
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = settle(() => {
        throw new Error("boom");
      });
    }).not.toThrow();
    await expect(result).rejects.toThrow("boom");
  });
});

describe("settleWith", () => {
  const times = (n: number, by: number) => n * by;

  it("runs the step at once on a ready value, as one resolved promise", async () => {
    let ran = false;
    const step = (n: number, by: number) => {
      ran = true;
      return n * by;
    };
    const result = settleWith(2, step, 3);
    expect(ran).toBe(true);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(6);
  });

  it("runs the step once a promise settles", async () => {
    expect(await settleWith(Promise.resolve(2), times, 4)).toBe(8);
  });

  it("turns the step's throw into a rejection instead of throwing", async () => {
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = settleWith(
        1,
        () => {
          throw new Error("boom");
        },
        0,
      );
    }).not.toThrow();
    await expect(result).rejects.toThrow("boom");
  });

  it("passes a rejection through without running the step", async () => {
    let ran = false;
    const step = () => {
      ran = true;
    };
    const result = settleWith(Promise.reject(new Error("read failed")), step, 0);
    await expect(result).rejects.toThrow("read failed");
    expect(ran).toBe(false);
  });
});

describe("chainWith", () => {
  const times = (n: number, by: number) => n * by;

  it("runs the step at once on a ready value, with its argument", () => {
    expect(chainWith(2, times, 5)).toBe(10);
  });

  it("runs the step once a promise settles", async () => {
    const later = chainWith(Promise.resolve(2), times, 5);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(10);
  });
});
