import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import { destroyMailer, generateMailer } from "../generate/generate-mailer.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { runDestroyCommand } from "./destroy-command.js";

export const generateHelp: CommandHelp = {
  usage: "wisent generate mailer <name> <mail> [mail ...] [options]   (alias: wisent g mailer)",
  summary:
    "Generates a mailer into the app in this folder: src/mailers/<name>.tsx with one mail per name\n(defineMail: a TSX HTML part in a shared layout, a text part, sample props), its test, the\nsubjects in src/locales/<name>_mailer.en-US.json, and app.mailerPreviews in src/app.ts\n(previews in development at /__wisent/mailers). Send one from a handler with\n`await AccountMailer.reset.deliverLater(c.tx(), { to, props, t: c.t })`.",
  options: [
    ["-d, --dry-run", "print the files; write nothing"],
    ["-f, --force", "overwrite files that exist"],
  ],
  examples: [
    ["wisent g mailer account reset welcome", "then open /__wisent/mailers under wisent dev"],
  ],
};

/** `wisent generate mailer <name> <mails>` (`wisent g mailer`). */
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
    const [name, ...mails] = positionals;
    if (!name) throw new UsageError("which mailer? (wisent g mailer account reset welcome)");
    const dryRun = values["dry-run"] === true;
    const result = generateMailer(io.cwd, { name, mails, dryRun, force: values.force === true });
    const out = new Output(io);
    for (const action of result.actions) out.action(action.verb, action.path);
    if (dryRun) out.hint("dry run: nothing was written");
    else
      out.hint(
        `generated ${result.plan.data.constant}; previews under wisent dev at /__wisent/mailers`,
      );
    return 0;
  });
}

export const destroyHelp: CommandHelp = {
  usage: "wisent destroy mailer <name> [-y|--yes] [--dry-run]   (alias: wisent d mailer)",
  summary:
    "Removes what generate mailer made for one mailer, asking per file (y/n), and its lines in\nsrc/app.ts; the shared layout goes with the last mailer.",
  options: [
    ["-y, --yes", "remove without asking"],
    ["-d, --dry-run", "list what would be removed; change nothing"],
  ],
  examples: [["wisent d mailer account -y", "removes the mailer without asking"]],
};

/** `wisent destroy mailer <name>` (`wisent d mailer`). */
export function destroy(argv: string[], io: CliIO): Promise<number> {
  return runDestroyCommand(argv, io, destroyHelp, 1, (request) => {
    const [name] = request.positionals;
    if (!name) throw new UsageError("which mailer? (wisent d mailer account)");
    return destroyMailer(io.cwd, name, request);
  });
}
