import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import type { CliIO } from "../io.js";
import { loadApp } from "./routes.js";

export const help: CommandHelp = {
  usage: "wisent openapi [--yaml] [--out FILE]",
  summary:
    "Prints the OpenAPI 3.1 document of the app in this folder: every route answering JSON, with its\nmodel's schemas. Loads the app as `wisent routes` does (dist/app.js, rebuilt first when older than\nsrc/), without starting a server or opening the database.",
  options: [
    ["--yaml", "YAML instead of JSON"],
    ["--out FILE", "write the document to FILE instead of printing it"],
  ],
  examples: [
    ["wisent openapi > openapi.json", "the document, for a client generator or a linter"],
    ["wisent openapi --yaml --out openapi.yaml", "the same as YAML, in a file"],
  ],
  notes: 'The app serves the same document with app.openapi("/openapi.json").',
};

/** `version` of the app's package.json, as the served document reads it. */
function appVersion(io: CliIO): string | undefined {
  try {
    const json = JSON.parse(readFileSync(join(io.cwd, "package.json"), "utf8")) as {
      version?: unknown;
    };
    return typeof json.version === "string" ? json.version : undefined;
  } catch {
    return undefined;
  }
}

/** `wisent openapi [--yaml] [--out FILE]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(
      argv,
      { yaml: { type: "boolean" }, out: { type: "string" } },
      0,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const app = await loadApp(io);
    const version = appVersion(io);
    const document = app.openApiDocument(version === undefined ? {} : { version });
    const text = values.yaml
      ? (await import("yaml")).stringify(document, { aliasDuplicateObjects: false })
      : `${JSON.stringify(document, null, 2)}\n`;
    if (typeof values.out === "string") {
      writeFileSync(resolve(io.cwd, values.out), text);
      io.stderr.write(`wrote ${values.out}\n`);
    } else {
      io.stdout.write(text);
    }
    return 0;
  });
}
