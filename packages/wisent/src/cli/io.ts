/**
 * The world a CLI command sees: where it writes, where it reads answers, its directory and
 * environment. Commands never touch `process.stdout`/`process.cwd()` directly, so tests run them
 * in-process with {@link memoryIO}.
 * @module
 */
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { colorWanted } from "../http/color-wanted.js";

export { colorWanted };

/** Something text can be written to (a stream, or a buffer in tests). */
export interface Writer {
  write(text: string): unknown;
}

/** Everything a command needs from its surroundings. */
export interface CliIO {
  /** Normal output: action lines, tables, JSON. */
  readonly stdout: Writer;
  /** Errors, warnings and usage lines. */
  readonly stderr: Writer;
  /** Where answers to prompts come from. */
  readonly stdin: NodeJS.ReadableStream;
  /**
   * Prints `question` (no newline) on stdout and resolves with the next line of stdin, without its
   * line ending; `""` once stdin has ended.
   * @example const yes = /^y$/i.test(await io.prompt("Remove src/models/widget.ts? (y/N) "));
   */
  prompt(question: string): Promise<string>;
  /** The directory the command works in (the app's root for routes/migrate/dev/start). */
  readonly cwd: string;
  /** Environment variables (GO_ENV, NODE_ENV, DATABASE_URL, NO_COLOR, ...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** stdout is an interactive terminal: spinners animate, prompts make sense. */
  readonly isTTY: boolean;
  /** ANSI colours are wanted: a TTY, no `NO_COLOR`, not `TERM=dumb` (or `FORCE_COLOR` set). */
  readonly color: boolean;
}

/** Reads lines one at a time from a stream, sharing one readline interface between prompts. */
function linePrompter(
  stdin: NodeJS.ReadableStream,
  stdout: Writer,
): (question: string) => Promise<string> {
  let lines: AsyncIterator<string> | undefined;
  return async (question) => {
    stdout.write(question);
    lines ??= createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY })[
      Symbol.asyncIterator
    ]();
    const next = await lines.next();
    return next.done ? "" : next.value;
  };
}

/** The real process's IO. */
export function processIO(): CliIO {
  const isTTY = process.stdout.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    prompt: linePrompter(process.stdin, process.stdout),
    cwd: process.cwd(),
    env: process.env,
    isTTY,
    color: colorWanted(process.env, isTTY),
  };
}

/** Options of {@link memoryIO}. */
export interface MemoryIOOptions {
  cwd: string;
  /** What stdin holds, e.g. `"y\nn\n"` for two prompt answers. */
  input?: string;
  env?: Record<string, string | undefined>;
  isTTY?: boolean;
  color?: boolean;
}

/** An in-memory {@link CliIO} for tests, with the text written so far. */
export interface MemoryIO {
  io: CliIO;
  stdout(): string;
  stderr(): string;
}

/**
 * A {@link CliIO} that captures output and answers prompts from a string (non-TTY, no colour
 * unless asked).
 * @example
 * const { io, stdout } = memoryIO({ cwd: dir, input: "y\n" });
 * expect(await run(["widget", "-y"], io)).toBe(0);
 * expect(stdout()).toContain("remove");
 */
export function memoryIO(options: MemoryIOOptions): MemoryIO {
  let out = "";
  let err = "";
  const stdout: Writer = { write: (text: string) => (out += text) };
  const stderr: Writer = { write: (text: string) => (err += text) };
  const stdin = Readable.from([options.input ?? ""]);
  const isTTY = options.isTTY ?? false;
  return {
    io: {
      stdout,
      stderr,
      stdin,
      prompt: linePrompter(stdin, stdout),
      cwd: options.cwd,
      env: options.env ?? {},
      isTTY,
      color: options.color ?? false,
    },
    stdout: () => out,
    stderr: () => err,
  };
}
