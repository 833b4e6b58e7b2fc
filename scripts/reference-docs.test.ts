import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../packages/wisent/src/base/error-codes.js";
import { ENVIRONMENT_VARIABLES } from "../packages/wisent/src/config/environment-variables.js";
import { pages } from "./reference-docs.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));

describe("the generated reference pages", () => {
  const expected = pages({ variables: ENVIRONMENT_VARIABLES, codes: ERROR_CODES });

  it.each(Object.keys(expected))(
    "%s is what the code's table says (else: npm run build && npm run docs:reference)",
    (path) => {
      expect(readFileSync(`${root}${path}`, "utf8")).toBe(expected[path]);
    },
  );

  it("list every variable and every code, one row each", () => {
    const environment = expected["docs/reference/environment.md"]!;
    for (const { name } of ENVIRONMENT_VARIABLES) expect(environment).toContain(`| \`${name}\` |`);
    const errors = expected["docs/reference/errors.md"]!;
    for (const code of Object.keys(ERROR_CODES)) expect(errors).toContain(`| \`${code}\` |`);
  });
});
