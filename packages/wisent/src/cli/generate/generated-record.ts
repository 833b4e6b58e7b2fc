import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { WisentError } from "../../base/wisent-error.js";

/** Where the generator keeps what it made, relative to the app (commit it with the app). */
export const RECORD_FILE = ".wisent/generated.json";

/** What `generate resource` made for one resource, so `destroy` can undo exactly that. */
export interface ResourceRecord {
  /** The resource name as given: `admin/widget`. */
  readonly name: string;
  /** The attribute arguments: `["title", "description:nulls.Text"]`. */
  readonly attributes: readonly string[];
  readonly parent?: string | undefined;
  /** `--cascade`: nested records are deleted with their parent. */
  readonly cascade?: boolean | undefined;
  /** `--member` routes it was generated with (`publish:post`). */
  readonly member?: readonly string[] | undefined;
  /** `--collection` routes it was generated with (`search:get`). */
  readonly collection?: readonly string[] | undefined;
  /** Generated with `--singular` (`app.singleton`). */
  readonly singular?: boolean | undefined;
  readonly skipModel?: boolean | undefined;
  readonly skipMigration?: boolean | undefined;
  readonly skipTemplates?: boolean | undefined;
  /**
   * Who may use it: `owned` (signed-in users, each their own records) or `shared` (signed-in
   * users); absent: public.
   */
  readonly access?: "owned" | "shared" | undefined;
  /** `full` when the tests were generated passing (`--tests=full`). */
  readonly tests?: "full" | undefined;
  /** The migration's file name. */
  readonly migration: string;
  /** Each file written, with the SHA-256 of what was written (to spot later edits). */
  readonly files: Readonly<Record<string, string>>;
  /** Files of another resource this one relies on (a model it reuses). */
  readonly uses?: readonly string[] | undefined;
  /** Packages it added to the app's package.json (`nodemailer`), which destroy removes. */
  readonly dependencies?: readonly string[] | undefined;
}

/** Every resource's record, keyed by its actions file base (`admin_widgets`). */
export type GeneratedRecords = Record<string, ResourceRecord>;

/** The SHA-256 of a file's contents, hex. */
export function contentHash(contents: string | Buffer): string {
  return createHash("sha256").update(contents).digest("hex");
}

/** Reads the records of an app (none when the file is missing). */
export function readRecords(appDir: string): GeneratedRecords {
  const file = join(appDir, RECORD_FILE);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as GeneratedRecords;
  } catch (cause) {
    throw new WisentError(
      "E_APP_FILE_INVALID",
      `${RECORD_FILE} is not valid JSON (${(cause as Error).message}): fix or delete it`,
    );
  }
}

/**
 * Writes the records, sorted by key, unless the file already holds exactly that; with none left
 * the file and its folder go away, so an app whose resources were all destroyed is a fresh app
 * again.
 */
export function writeRecords(appDir: string, records: GeneratedRecords): void {
  const file = join(appDir, RECORD_FILE);
  const keys = Object.keys(records).sort();
  if (keys.length === 0) {
    rmSync(file, { force: true });
    try {
      rmdirSync(dirname(file));
    } catch {
      // not empty (something else lives there) or already gone
    }
    return;
  }
  const sorted: GeneratedRecords = {};
  for (const key of keys) sorted[key] = records[key]!;
  const text = `${stringify(sorted)}\n`;
  // Unchanged records are not rewritten: a command that changed nothing leaves the file's
  // modification time alone too.
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Biome's default line width, which apps made by `wisent new` keep. */
const LINE_WIDTH = 100;

/**
 * JSON with two-space indents as Biome lays it out, so the app lints clean: objects one member
 * per line; a list of plain values on one line when that line, with the comma after it, fits in
 * the line width, else one value per line.
 */
function stringify(value: unknown, indent = "", around = ""): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inner = `${indent}  `;
    if (value.every((item) => item === null || typeof item !== "object")) {
      const inline = `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
      // `around`: what shares its line (the indent and key before it, the comma after it).
      if (inline.length + around.length <= LINE_WIDTH) return inline;
    }
    const items = value.map((item, i) => {
      const comma = i < value.length - 1 ? "," : "";
      return `${inner}${stringify(item, inner, `${inner}${comma}`)}`;
    });
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const inner = `${indent}  `;
    const members = entries.map(([key, v], i) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      const comma = i < entries.length - 1 ? "," : "";
      return `${head}${stringify(v, inner, `${head}${comma}`)}`;
    });
    return `{\n${members.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}
