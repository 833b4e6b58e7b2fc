/**
 * Why the app could not start under `wisent dev`, in a shape the error page can show: the file,
 * line and column of each problem, its message, and the lines of source around it.
 * @module
 */
import { readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** One place the start-up failed. */
export interface Problem {
  /** Path relative to the app folder, e.g. `src/templates/home/index.tsx`. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** Up to 7 numbered source lines around `line`: `[lineNumber, text]`. */
  readonly excerpt?: readonly (readonly [number, string])[];
}

/** A start-up failure: a one-line summary, the problems, and the full error text. */
export interface StartFailure {
  /** `src/templates/home/index.tsx:5:10: Unexpected closing "div" tag ...`. */
  readonly summary: string;
  readonly problems: readonly Problem[];
  /** The error's own text (stack or output), for the details section. */
  readonly details: string;
}

function excerptOf(path: string, line: number): Problem["excerpt"] {
  try {
    const lines = readFileSync(path, "utf8").split("\n");
    const from = Math.max(1, line - 3);
    const to = Math.min(lines.length, line + 3);
    const rows: [number, string][] = [];
    for (let n = from; n <= to; n++) rows.push([n, lines[n - 1] ?? ""]);
    return rows;
  } catch {
    return undefined;
  }
}

function located(
  cwd: string,
  path: string,
  line: number,
  column: number,
  message: string,
): Problem {
  const absolute = path.startsWith("file:") ? fileURLToPath(path) : path;
  const file = isAbsolute(absolute) ? relative(cwd, absolute) : absolute;
  const full = isAbsolute(absolute) ? absolute : `${cwd}/${absolute}`;
  return { file, line, column, message, excerpt: excerptOf(full, line) };
}

/** esbuild's `path:line:col: ERROR: message` lines (tsx's TransformError). */
function transformProblems(text: string, cwd: string): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(/^(.+?):(\d+):(\d+): ERROR: (.*)$/gm)) {
    const [, path = "", line = "1", column = "0", message = ""] = match;
    problems.push(located(cwd, path, Number(line), Number(column) + 1, message));
  }
  return problems;
}

/** The first stack frame in the app's own files (not node_modules, not node's internals). */
function appFrame(
  stack: string,
  cwd: string,
): { path: string; line: number; column: number } | undefined {
  for (const match of stack.matchAll(/(?:\(|at )((?:file:\/\/)?\/[^():\s]+):(\d+):(\d+)\)?$/gm)) {
    const [, path = "", line = "1", column = "1"] = match;
    const absolute = path.startsWith("file:") ? fileURLToPath(path) : path;
    if (absolute.startsWith(cwd) && !absolute.includes("/node_modules/")) {
      return { path: absolute, line: Number(line), column: Number(column) };
    }
  }
  return undefined;
}

/**
 * What the dev server shows for `error`, thrown while loading the app in `cwd`.
 * @example describeStartFailure(transformError, "/home/me/blog").problems[0]
 * // { file: "src/templates/home/index.tsx", line: 5, column: 10, message: "Unexpected ...", excerpt: [...] }
 */
export function describeStartFailure(error: unknown, cwd: string): StartFailure {
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof Error ? (error.stack ?? message) : message;
  let problems = transformProblems(message, cwd);
  if (problems.length === 0) {
    const frame = appFrame(details, cwd);
    const firstLine = message.split("\n")[0] ?? message;
    const name = error instanceof Error && error.name !== "Error" ? `${error.name}: ` : "";
    problems = frame
      ? [located(cwd, frame.path, frame.line, frame.column, `${name}${firstLine}`)]
      : [{ message: `${name}${firstLine}` }];
  }
  const first = problems[0] as Problem;
  const where = first.file ? `${first.file}:${first.line}:${first.column}: ` : "";
  return { summary: `error: the app did not start: ${where}${first.message}`, problems, details };
}
