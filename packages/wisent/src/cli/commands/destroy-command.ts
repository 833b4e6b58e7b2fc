/**
 * What every `wisent destroy <kind>` command does around its plan: `-y`/`--dry-run` and `--help`,
 * a y/n prompt per file, one line per action, and the dry run's closing hint.
 * @module
 */
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import type { FileAction } from "../generate/write-generated.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

/** What a destroy command's plan is given: the parsed command line and its prompt. */
export interface DestroyRequest {
  readonly positionals: readonly string[];
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly out: Output;
  readonly confirm: (question: string) => Promise<boolean>;
}

/**
 * Runs `destroy` (one of the generators' destroy plans) as a command taking at most `positionals`
 * names, and prints what it removed.
 * @example
 * export const destroy = (argv: string[], io: CliIO) =>
 *   runDestroyCommand(argv, io, destroyHelp, 1, (r) => destroyJob(io.cwd, r.positionals[0]!, r));
 */
export function runDestroyCommand(
  argv: string[],
  io: CliIO,
  help: CommandHelp,
  positionals: number,
  destroy: (request: DestroyRequest) => Promise<{ readonly actions: readonly FileAction[] }>,
): Promise<number> {
  return guard(io, help, async () => {
    const parsed = parseCommandArgs(
      argv,
      { yes: { type: "boolean", short: "y" }, "dry-run": { type: "boolean", short: "d" } },
      positionals,
    );
    if (parsed.values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const out = new Output(io);
    const dryRun = parsed.values["dry-run"] === true;
    const result = await destroy({
      positionals: parsed.positionals,
      yes: parsed.values.yes === true,
      dryRun,
      out,
      confirm: async (question) => /^y(es)?$/i.test((await io.prompt(question)).trim()),
    });
    for (const action of result.actions) out.action(action.verb, action.path);
    if (dryRun) out.hint("dry run: nothing was removed");
    return 0;
  });
}
