import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ActionVerb } from "../output.js";
import { editTemplates, insertAppLines } from "./app-registration.js";
import { formatWithAppBiome } from "./format-files.js";
import { contentHash } from "./generated-record.js";
import type { AppEdit } from "./resource-plan.js";
import { UsageError } from "./usage-error.js";

/** One line of the report: `create src/models/widget.ts`. */
export interface FileAction {
  readonly verb: ActionVerb;
  readonly path: string;
}

/**
 * What writing `rendered` into `appDir` would do to each file: create, identical, or force
 * (with `force`); throws naming every file that differs when not forced. Shared by
 * `generate resource` and `generate authentication`, before anything is written.
 *
 * @example const actions = plannedActions(appDir, rendered, options.force);
 */
export function plannedActions(
  appDir: string,
  rendered: ReadonlyMap<string, string>,
  force: boolean | undefined,
): FileAction[] {
  const actions: FileAction[] = [];
  const conflicts: string[] = [];
  for (const [path, contents] of rendered) {
    const target = join(appDir, path);
    if (!existsSync(target)) actions.push({ verb: "create", path });
    else if (readFileSync(target, "utf8") === contents) actions.push({ verb: "identical", path });
    else if (force) actions.push({ verb: "force", path });
    else conflicts.push(path);
  }
  if (conflicts.length > 0) {
    throw new UsageError(
      `${conflicts.join(", ")} exist${conflicts.length === 1 ? "s" : ""} already: add --force to overwrite`,
    );
  }
  return actions;
}

/**
 * Everything a generator is about to write, and its report: the new files (see
 * {@link plannedActions}), its lines in src/app.ts and its links in the app's templates, each
 * edit an `update` line. Nothing is written yet (a dry run stops here).
 *
 * @example const { writes, actions } = plannedWrites(appDir, app.appSource, rendered, plan.edits, options.force);
 */
export function plannedWrites(
  appDir: string,
  appSource: string,
  rendered: ReadonlyMap<string, string>,
  edits: readonly AppEdit[],
  force: boolean | undefined,
): { writes: GeneratedWrites; actions: FileAction[] } {
  const actions = plannedActions(appDir, rendered, force);
  const registered = insertAppLines(
    appSource,
    edits.filter((e) => e.path === "src/app.ts"),
  );
  if (registered.changed) actions.push({ verb: "update", path: "src/app.ts" });
  const linked = editTemplates(appDir, edits, insertAppLines);
  for (const path of linked.keys()) actions.push({ verb: "update", path });
  return { writes: { rendered, registered, linked }, actions };
}

/** What a generator writes into an app: new files, the edited src/app.ts, edited templates. */
export interface GeneratedWrites {
  /** New files by app-relative path. */
  readonly rendered: ReadonlyMap<string, string>;
  /** src/app.ts with the generator's lines in it, when they changed it. */
  readonly registered: { readonly source: string; readonly changed: boolean };
  /** Existing templates that got a link, by app-relative path. */
  readonly linked: ReadonlyMap<string, string>;
}

/**
 * Writes a generator's files into `appDir`, formats them with the app's own biome (unless
 * `format` is false), and returns the content hash of each new file, for the generated record
 * that `destroy` checks. Shared by `generate resource` and `generate authentication`.
 *
 * @example const files = writeGenerated(appDir, { rendered, registered, linked }, options);
 */
export function writeGenerated(
  appDir: string,
  { rendered, registered, linked }: GeneratedWrites,
  options: { readonly format?: boolean; readonly biome?: string },
): Record<string, string> {
  for (const [path, contents] of rendered) {
    const target = join(appDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
  }
  if (registered.changed) writeFileSync(join(appDir, "src/app.ts"), registered.source);
  for (const [path, source] of linked) writeFileSync(join(appDir, path), source);
  if (options.format !== false) {
    formatWithAppBiome(
      appDir,
      [...rendered.keys(), ...(registered.changed ? ["src/app.ts"] : []), ...linked.keys()],
      options.biome,
    );
  }
  const files: Record<string, string> = {};
  for (const path of rendered.keys()) files[path] = contentHash(readFileSync(join(appDir, path)));
  return files;
}
