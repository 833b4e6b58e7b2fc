import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AppEdit } from "./resource-plan.js";
import { UsageError } from "./usage-error.js";

/**
 * Inserts each edit's line above its marker comment (indented like the marker), in order, so the
 * static catch-all declared after the marker stays last. A line already present is left alone.
 * Throws a {@link UsageError} when a marker is missing.
 *
 * @example
 * insertAppLines(source, plan.edits).source // app.ts with the import and the resource line
 */
export function insertAppLines(
  source: string,
  edits: readonly AppEdit[],
): { source: string; changed: boolean } {
  const lines = source.split("\n");
  let changed = false;
  for (const edit of edits) {
    if (removeAppLines(lines.join("\n"), [edit]).changed) continue;
    const at = lines.findIndex((line) => line.trim().startsWith(edit.marker));
    if (at < 0 && edit.optional) continue;
    if (at < 0) {
      throw new UsageError(
        `${edit.path} has no "${edit.marker}" line: put it back where generated lines belong (see a fresh app)`,
      );
    }
    const indent = /^\s*/.exec(lines[at]!)![0];
    lines.splice(sortedPosition(lines, at, edit.line), 0, indent + edit.line);
    changed = true;
  }
  return { source: lines.join("\n"), changed };
}

const IMPORT_FROM = /^import\s.*\sfrom\s+"(\.{1,2}\/[^"]+)";$/;

/**
 * Where an import line goes among the one-line relative imports right above the marker at `at`,
 * so they stay in path order as Biome sorts them; any other line goes right above the marker.
 */
function sortedPosition(lines: readonly string[], at: number, line: string): number {
  const source = IMPORT_FROM.exec(line)?.[1];
  if (source === undefined) return at;
  let position = at;
  for (let i = at - 1; i >= 0; i--) {
    const other = IMPORT_FROM.exec(lines[i]!.trim())?.[1];
    if (other === undefined || other < source) break;
    position = i;
  }
  return position;
}

/** A statement with its layout taken out: a formatter may have wrapped it over several lines. */
function compact(code: string): string {
  // A JSX space (`{" "}`) is left out too: a link generated before it had one is still found.
  return code
    .replace(/\s+/g, "")
    .replace(/,([)}])/g, "$1")
    .replaceAll('{""}', "");
}

/** Longest a formatter makes one generated statement (an import or resource line, wrapped). */
const MAX_STATEMENT_LINES = 8;

/**
 * Removes the statements the edits inserted, also when a formatter has since wrapped one over
 * several lines; the inverse of {@link insertAppLines}, so generate then destroy gives the file
 * back byte for byte.
 */
export function removeAppLines(
  source: string,
  edits: readonly AppEdit[],
): { source: string; changed: boolean } {
  const lines = source.split("\n");
  let changed = false;
  for (const edit of edits) {
    const wanted = compact(edit.line);
    for (let start = 0; start < lines.length; start++) {
      if (!wanted.startsWith(compact(lines[start]!)) || lines[start]!.trim() === "") continue;
      let joined = "";
      let end = start;
      for (; end < lines.length && end < start + MAX_STATEMENT_LINES; end++) {
        joined += lines[end]!;
        if (compact(joined).length >= wanted.length) break;
      }
      if (compact(joined) === wanted) {
        lines.splice(start, end - start + 1);
        changed = true;
        break;
      }
    }
  }
  return { source: lines.join("\n"), changed };
}

/**
 * Applies edits (insert or remove) to the files they name, other than src/app.ts: the links a
 * resource adds to the layout, the home page and its parent's page. Returns each changed file's
 * new contents; a missing file is left alone (an API app has no layout).
 *
 * @example
 * editTemplates(appDir, plan.edits, insertAppLines); // Map { "src/templates/layout.tsx" => "..." }
 */
export function editTemplates(
  appDir: string,
  edits: readonly AppEdit[],
  apply: typeof insertAppLines | typeof removeAppLines,
): Map<string, string> {
  const changed = new Map<string, string>();
  const paths = [...new Set(edits.map((e) => e.path))].filter((p) => p !== "src/app.ts");
  for (const path of paths) {
    const file = join(appDir, path);
    if (!existsSync(file)) continue;
    const result = apply(
      readFileSync(file, "utf8"),
      edits.filter((e) => e.path === path),
    );
    if (result.changed) changed.set(path, result.source);
  }
  return changed;
}
