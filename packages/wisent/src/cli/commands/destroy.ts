import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import { destroyResource } from "../generate/destroy-resource.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent destroy resource <name> [-y|--yes] [--dry-run]   (alias: wisent d r)",
  summary:
    "Removes what generate resource made for <name>, asking per file (y/n), and its lines in\nsrc/app.ts. A file edited since it was generated is named in the question.",
  options: [
    ["-y, --yes", "remove without asking"],
    ["-d, --dry-run", "list what would be removed; change nothing"],
  ],
  examples: [
    ["wisent destroy resource widget", "asks for each file"],
    ["wisent d r widget -y", "removes everything without asking"],
  ],
};

/** `wisent destroy resource <name> [-y] [--dry-run]` (`wisent d r`). */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { yes: { type: "boolean", short: "y" }, "dry-run": { type: "boolean", short: "d" } },
      1,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const out = new Output(io);
    const dryRun = values["dry-run"] === true;
    const result = await destroyResource(io.cwd, {
      name: positionals[0] ?? "",
      yes: values.yes === true,
      dryRun,
      confirm: async (question) => /^y(es)?$/i.test((await io.prompt(question)).trim()),
    });
    for (const path of result.shared)
      out.action("exists", `${path} (kept: another resource uses it)`);
    if (dryRun) {
      for (const candidate of result.candidates) {
        out.action(
          "remove",
          candidate.edited ? `${candidate.path} (edited since it was generated)` : candidate.path,
        );
      }
      if (result.actions.some((a) => a.path === "src/app.ts")) out.action("update", "src/app.ts");
      out.hint("dry run: nothing was removed");
      return 0;
    }
    for (const action of result.actions) out.action(action.verb, action.path);
    return 0;
  });
}
