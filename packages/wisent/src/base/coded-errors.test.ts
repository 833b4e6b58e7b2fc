import { describe, expect, it } from "vitest";
import { migrationFileName } from "../data/migrations.js";
import { transactionFinishedError } from "../data/transaction-handle.js";
import { jsx } from "../jsx/jsx-runtime.js";
import { names } from "../naming/names.js";
import { paramKeyFromClassName } from "../naming/param-key.js";
import { pathName } from "../naming/route-name.js";
import { parsePathTemplate } from "../routes/path-template.js";
import { imageVariant } from "../storage/image-variants.js";
import { assertSent } from "../testing/mail.js";
import { decimal } from "../validation/decimal.js";
import type { ErrorCode } from "./error-codes.js";
import { isWisentError } from "./wisent-error.js";

/** What `run` throws (undefined when it does not). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("errors a user of Wisent can meet", () => {
  it.each<[string, () => unknown, ErrorCode, string]>([
    ["decimal's precision", () => decimal(1.5, 0), "E_INVALID_ARGUMENT", "decimal(1.5, 0)"],
    ["decimal's scale", () => decimal(4, 5), "E_INVALID_ARGUMENT", "scale <= precision"],
    [
      "an image variant's name",
      () => imageVariant("Big Card", { width: 1, height: 1 }),
      "E_INVALID_ARGUMENT",
      "image variant name",
    ],
    [
      "an image variant's side",
      () => imageVariant("card", { width: 0, height: 1 }),
      "E_INVALID_ARGUMENT",
      "width",
    ],
    ["a route name", () => pathName(""), "E_INVALID_ARGUMENT", "pathName: name"],
    [
      "a resource class name",
      () => paramKeyFromClassName(1 as unknown as string),
      "E_INVALID_ARGUMENT",
      "className",
    ],
    ["a resource name", () => names("1widget"), "E_INVALID_ARGUMENT", "1widget"],
    [
      "a route path",
      () => parsePathTemplate(7 as unknown as string),
      "E_INVALID_ARGUMENT",
      "route path",
    ],
    ["a migration name", () => migrationFileName("Add-Color"), "E_MIGRATION", '"Add-Color"'],
    ["a JSX attribute", () => jsx("a", { href: () => 1 }), "E_JSX_INVALID", "<a href>"],
    ["a JSX tag", () => jsx("a b", {}), "E_JSX_INVALID", "a b"],
    ["an async component", () => jsx(async () => jsx("p", {}), {}), "E_JSX_INVALID", "Promise"],
    [
      "a test's mail assertion",
      () => assertSent({ to: "nobody@example.com" }),
      "E_TEST_ASSERTION",
      "nobody@example.com",
    ],
    [
      "a query after the request",
      () => {
        throw transactionFinishedError();
      },
      "E_TRANSACTION_FINISHED",
      "already finished",
    ],
  ])("%s: a WisentError with its code, naming what was wrong", (_what, run, code, named) => {
    const error = thrown(run);
    expect(isWisentError(error, code)).toBe(true);
    expect((error as Error).message).toContain(named);
  });
});
