/**
 * Independent checks of an OpenAPI document: the OpenAPI 3.1 schema validator from npm, Redocly
 * CLI's recommended rules, and Ajv (JSON Schema 2020-12) for real answers against the schemas the
 * document gives.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/** A parsed JSON document, read by path. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by key
export type Json = any;
type Doc = Record<string, Json>;

/** The validator's verdict: `[]` when the document is valid OpenAPI 3.1. */
export async function openApiErrors(document: unknown): Promise<unknown[]> {
  const validator = new Validator();
  const result = await validator.validate(document as object);
  return result.valid ? [] : ([] as unknown[]).concat(result.errors ?? "invalid");
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Ajv with the document's component schemas, so `#/components/schemas/X` refs resolve. */
export function answerChecker(document: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: document.components }, "doc");
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  const deref = (value: Doc): Doc => {
    let current = value;
    while (typeof current?.$ref === "string") {
      const path = (current.$ref as string).replace(/^#\//, "").split("/");
      current = path.reduce((node: Doc, key) => node[key.replaceAll("~1", "/")], document);
    }
    return current;
  };
  return {
    /**
     * The errors of `body`, answered with `status` and `contentType` by the operation at
     * `method path`, against the document's schema for them; throws when the document has none.
     */
    check(method: string, path: string, status: number, contentType: string, body: unknown) {
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (!operation) throw new Error(`no operation ${method} ${path} in the document`);
      const response = deref(operation.responses[String(status)]);
      if (!response) throw new Error(`${method} ${path} documents no ${status}`);
      const media = response.content?.[contentType.split(";")[0]!.trim()];
      if (!media) throw new Error(`${method} ${path} ${status} documents no ${contentType}`);
      const validate = ajv.compile(rewrite(media.schema) as object);
      return validate(body) ? [] : validate.errors;
    },
    /** The response headers `method path` documents for `status`. */
    headers(method: string, path: string, status: number): string[] {
      const response = deref(document.paths[path][method.toLowerCase()].responses[String(status)]);
      return Object.keys(response.headers ?? {});
    },
  };
}

const REDOCLY = fileURLToPath(
  new URL("../../node_modules/@redocly/cli/bin/cli.js", import.meta.url),
);

/**
 * Redocly CLI's verdict on a document under its `recommended` rules: the rule and place of each
 * error and warning.
 */
export async function redoclyProblems(
  document: unknown,
): Promise<{ errors: string[]; warnings: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "wisent-redocly-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document));
    const { stdout } = await new Promise<{ stdout: string }>((resolve) => {
      // Exits 1 when it finds errors: the JSON report says which.
      execFile(
        process.execPath,
        [REDOCLY, "lint", file, "--extends=recommended", "--format=json"],
        {
          cwd: dir,
          maxBuffer: 10 * 1024 * 1024,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
        (_error, out) => resolve({ stdout: out }),
      );
    });
    const report = JSON.parse(stdout) as {
      problems: {
        ruleId: string;
        severity: string;
        message: string;
        location?: { pointer?: string }[];
      }[];
    };
    const said = (severity: string) =>
      report.problems
        .filter((p) => p.severity === severity)
        .map((p) => `${p.ruleId} ${p.location?.[0]?.pointer ?? ""}: ${p.message}`);
    return { errors: said("error"), warnings: said("warn") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
