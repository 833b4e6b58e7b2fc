import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import { destroyJob, generateJob } from "../generate/generate-job.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { runDestroyCommand } from "./destroy-command.js";

export const generateHelp: CommandHelp = {
  usage: "wisent generate job <name> [field:type ...] [options]   (alias: wisent g job)",
  summary:
    "Generates a background job into the app in this folder: src/jobs/<name>.ts (a payload schema\nfrom the fields, and perform) and its test, registered in src/app.ts (app.job). The first job\nalso writes the migration of the jobs tables and app.jobs(db). Enqueue it from a handler through\nthe request's transaction: `await SendDigest.enqueue(c.tx(), { email })`.",
  options: [
    ["-d, --dry-run", "print the files; write nothing"],
    ["-f, --force", "overwrite files that exist"],
  ],
  examples: [
    ["wisent g job send_digest email:string", "then: wisent migrate"],
    ["wisent g job resize_image image_id:uuid width:int", "a payload of two fields"],
  ],
  notes:
    "Field types are the resource generator's (string, text, int, bool, decimal, timestamp, uuid, ...);\na payload is JSON, so dates travel as ISO text.",
};

/** `wisent generate job <name> [fields]` (`wisent g job`). */
export async function generate(argv: string[], io: CliIO): Promise<number> {
  return guard(io, generateHelp, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { "dry-run": { type: "boolean", short: "d" }, force: { type: "boolean", short: "f" } },
      Number.POSITIVE_INFINITY,
    );
    if (values.help) {
      io.stdout.write(formatHelp(generateHelp));
      return 0;
    }
    const [name, ...attributes] = positionals;
    if (!name) throw new UsageError("which job? (wisent g job send_digest email:string)");
    const dryRun = values["dry-run"] === true;
    const result = generateJob(io.cwd, { name, attributes, dryRun, force: values.force === true });
    const out = new Output(io);
    for (const action of result.actions) out.action(action.verb, action.path);
    if (dryRun) {
      out.hint("dry run: nothing was written");
      return 0;
    }
    const migration = result.plan.files.some((f) => f.group === "migration");
    out.hint(
      `generated job ${result.plan.data.constant}; ${migration ? "next: wisent migrate (the jobs tables), then " : "next: "}enqueue it with ${result.plan.data.constant}.enqueue(c.tx(), {...})`,
    );
    return 0;
  });
}

export const destroyHelp: CommandHelp = {
  usage: "wisent destroy job <name> [-y|--yes] [--dry-run]   (alias: wisent d job)",
  summary:
    "Removes what generate job made for one job, asking per file (y/n), and its lines in\nsrc/app.ts. The jobs tables, their migration and app.jobs(db) stay (other jobs use them).",
  options: [
    ["-y, --yes", "remove without asking"],
    ["-d, --dry-run", "list what would be removed; change nothing"],
  ],
  examples: [["wisent d job send_digest -y", "removes the job and its test without asking"]],
};

/** `wisent destroy job <name>` (`wisent d job`). */
export function destroy(argv: string[], io: CliIO): Promise<number> {
  return runDestroyCommand(argv, io, destroyHelp, 1, (request) => {
    const [name] = request.positionals;
    if (!name) throw new UsageError("which job? (wisent d job send_digest)");
    return destroyJob(io.cwd, name, request);
  });
}
