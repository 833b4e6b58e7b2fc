/**
 * Argument parsing for every command: node:util `parseArgs` in strict mode, with its errors turned
 * into one-line {@link UsageError}s, plus the help/usage text each command declares.
 * @module
 */

import { type ParseArgsConfig, parseArgs } from "node:util";
import { isMissingDatabase, MISSING_DATABASE_HINT } from "../data/database-unavailable.js";
import { UsageError } from "./generate/usage-error.js";
import type { CliIO } from "./io.js";
import { Output } from "./output.js";

export { USAGE_EXIT_CODE, UsageError } from "./generate/usage-error.js";

/** How a command describes itself for `--help` and usage errors. */
export interface CommandHelp {
  /** `wisent new <name> [--api] ...` */
  usage: string;
  /** One sentence. */
  summary: string;
  /** `[flag, explanation]` rows. */
  options?: readonly (readonly [string, string])[];
  /** `[command, explanation]` rows. */
  examples?: readonly (readonly [string, string])[];
  /** Free text after the examples. */
  notes?: string;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** What {@link parseCommandArgs} returns. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * Parses `argv` strictly against `options` (`--help`/`-h` is always accepted). Unknown flags,
 * missing values and stray positionals (beyond `maxPositionals`) throw a {@link UsageError}.
 * @example parseCommandArgs(["shop", "--api"], { api: { type: "boolean" } }, 1)
 */
export function parseCommandArgs(
  argv: readonly string[],
  options: Options,
  maxPositionals: number,
): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (!values.help && parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals.slice(maxPositionals).map((p) => JSON.stringify(p));
    throw new UsageError(`unexpected argument${extra.length > 1 ? "s" : ""} ${extra.join(" ")}`);
  }
  return { values, positionals: parsed.positionals };
}

/** node's messages are long and mention `parseArgs`; keep the part a person needs. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing =
    /Option '(?:-\w, )?(-[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(message);
  if (missing) return `option ${missing[1]} needs a value`;
  const noValue = /Option '([^']+)' does not take an argument/.exec(message);
  if (noValue) return `option ${noValue[1]?.replace(/^-\w, /, "")} does not take a value`;
  return message.split(/\.\s/)[0] ?? message;
}

/**
 * Reads a whole number option (`--port 3000`), or `fallback` when absent.
 * @example integerOption(values, "step", 1, { min: 1 })
 */
export function integerOption(
  values: ParsedArgs["values"],
  name: string,
  fallback: number,
  range: { min: number; max?: number },
): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < range.min || value > max) {
    const bound = range.max === undefined ? `at least ${range.min}` : `from ${range.min} to ${max}`;
    throw new UsageError(`--${name} must be a whole number ${bound}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The `--help` text of a command. */
export function formatHelp(help: CommandHelp): string {
  const lines = [`Usage: ${help.usage}`, "", help.summary];
  const table = (title: string, rows: readonly (readonly [string, string])[]) => {
    const width = Math.max(...rows.map(([left]) => left.length));
    lines.push(
      "",
      `${title}:`,
      ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    );
  };
  table("Options", [...(help.options ?? []), ["-h, --help", "show this help"]]);
  if (help.examples?.length) table("Examples", help.examples);
  if (help.notes) lines.push("", help.notes);
  return `${lines.join("\n")}\n`;
}

/**
 * Prints a usage error (`error: <message>`, the usage line, where to get help) and returns 2.
 * @example return usageFailure(io, NEW_HELP, "missing the app name");
 */
export function usageFailure(io: CliIO, help: Pick<CommandHelp, "usage">, message: string): number {
  new Output(io).error(message);
  const command = help.usage.split(/\s+[<[-]/)[0] ?? "wisent";
  io.stderr.write(`usage: ${help.usage}\n(run "${command} --help" for details)\n`);
  return 2;
}

/**
 * Runs a command body, turning a {@link UsageError} into exit code 2 with the usage line and any
 * other error into `error: <message>` and exit code 1.
 */
export async function guard(
  io: CliIO,
  help: CommandHelp,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError || (error as Error | undefined)?.name === "UsageError") {
      return usageFailure(io, help, (error as Error).message);
    }
    const message = error instanceof Error ? error.message : String(error);
    // A query of the app's own code (seeds, a script) on a database never created: say the fix.
    const hint =
      isMissingDatabase(error) && !message.includes(MISSING_DATABASE_HINT)
        ? `: ${MISSING_DATABASE_HINT}`
        : "";
    new Output(io).error(`${message}${hint}`);
    return 1;
  }
}
