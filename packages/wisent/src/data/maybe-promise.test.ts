import { describe, expect, it } from "vitest";
import { chain, settle } from "./maybe-promise.js";

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
