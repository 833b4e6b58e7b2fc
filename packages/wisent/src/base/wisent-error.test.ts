import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { ConfigError } from "../config/env.js";
import { DependentRecordsError } from "../data/dependents.js";
import { ValidationFailedError } from "../data/model.js";
import { configurePagination } from "../data/pagination-settings.js";
import { bodyLimit } from "../http/body.js";
import { buildPath } from "../routes/build-path.js";
import { parsePathTemplate } from "../routes/path-template.js";
import { PortInUseError } from "../server/port-in-use.js";
import { StorageUrlError } from "../storage/storage-url.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import { ERROR_CODES } from "./error-codes.js";
import { HttpError } from "./http-error.js";
import { MissingDependencyError, NativeBinaryError } from "./require-dependency.js";
import { isWisentError, WisentError } from "./wisent-error.js";

describe("WisentError", () => {
  it("is the base of every error class, each with its stable code from the table", () => {
    const errors: [Error, string][] = [
      [new HttpError(404, "gone"), "E_HTTP"],
      [new HttpError(403, "no", { code: "E_APP_MISCONFIGURED" }), "E_APP_MISCONFIGURED"],
      [
        new ValidationFailedError("book", new ValidationErrors({ title: ["x"] })),
        "E_VALIDATION_FAILED",
      ],
      [
        new DependentRecordsError("author", [{ table: "books", column: "author_id", count: 2 }]),
        "E_DEPENDENT_RECORDS",
      ],
      [new ValidationErrors(), "E_VALIDATION"],
      [new MissingDependencyError("pg"), "E_MISSING_DEPENDENCY"],
      [new NativeBinaryError("no binary"), "E_NATIVE_BINARY"],
      [new PortInUseError(3000, undefined), "E_PORT_IN_USE"],
      [new StorageUrlError("bad"), "E_STORAGE_URL"],
      [new ConfigError("bad"), "E_CONFIG_INVALID"],
    ];
    for (const [error, code] of errors) {
      expect(error, error.name).toBeInstanceOf(WisentError);
      expect((error as WisentError).code, error.name).toBe(code);
      expect(ERROR_CODES, code).toHaveProperty(code);
    }
  });

  it("keeps each class's name and HttpError's status", () => {
    const error = new ValidationFailedError("book", new ValidationErrors({ title: ["blank"] }));
    expect(error.name).toBe("ValidationFailedError");
    expect(error.status).toBe(422);
    expect(new HttpError(404, "gone").name).toBe("HttpError");
  });

  it("answers the status of its code's row, an HttpError its own, none without a row's", () => {
    expect(new WisentError("E_DATABASE_UNAVAILABLE", "down").status).toBe(503);
    expect(new WisentError("E_UNIQUE_VIOLATION", "taken").status).toBe(422);
    expect(new ValidationErrors().status).toBe(422);
    expect(new HttpError(418, "teapot").status).toBe(418);
    expect(new ConfigError("bad").status).toBeUndefined();
  });

  it("isWisentError tells Wisent's errors apart, by code when given one", () => {
    const error = new MissingDependencyError("pg");
    expect(isWisentError(error)).toBe(true);
    expect(isWisentError(error, "E_MISSING_DEPENDENCY")).toBe(true);
    expect(isWisentError(error, "E_HTTP")).toBe(false);
    expect(isWisentError(new Error("plain"))).toBe(false);
    expect(isWisentError("E_HTTP")).toBe(false);
  });
});

describe("errors a user reaches through the public API", () => {
  const codeOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return isWisentError(error) ? error.code : `not a WisentError: ${String(error)}`;
    }
    return "no error";
  };

  it("give a bad option or setting E_CONFIG_INVALID, a misdeclared app E_APP_MISCONFIGURED", () => {
    expect(codeOf(() => new App({ name: "1shop" }))).toBe("E_CONFIG_INVALID");
    expect(codeOf(() => bodyLimit(-1))).toBe("E_CONFIG_INVALID");
    expect(codeOf(() => configurePagination({ countLimit: 1.5 }))).toBe("E_CONFIG_INVALID");
    expect(codeOf(() => new App({ name: "shop" }).job({ name: "x" } as never))).toBe(
      "E_APP_MISCONFIGURED",
    );
    expect(
      codeOf(() => buildPath("widgetPath", parsePathTemplate("/widgets/{widget_id}"), {})),
    ).toBe("E_APP_MISCONFIGURED");
  });
});
