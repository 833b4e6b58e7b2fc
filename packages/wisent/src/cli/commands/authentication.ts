import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import {
  destroyAuthentication,
  generateAuthentication,
} from "../generate/generate-authentication.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { appDatabase } from "./destroy.js";
import { runDestroyCommand } from "./destroy-command.js";

export const generateHelp: CommandHelp = {
  usage: "wisent generate authentication [options]   (alias: wisent g auth)",
  summary:
    "Generates sign-up, sign-in, sign-out, password reset, email verification and an account page\n(change the email and the password) into the web app in this folder: a User model and\nmigration (email, password_digest, email_verified_at), sessions, registrations, passwords and\nverifications handlers, templates, locale messages and tests, declared in src/app.ts.\nPasswords are hashed with scrypt; sign-in and reset are rate-limited; reset and verification\nlinks are mailed through jobs (nodemailer, added to package.json; SMTP_URL, without which\nproduction does not start). In an API app: access tokens instead (POST /user, POST /tokens,\nDELETE /tokens/current, Bearer).",
  options: [
    ["-d, --dry-run", "print the files; write nothing"],
    ["-f, --force", "overwrite files that exist"],
  ],
  examples: [
    ["wisent g auth", "then: wisent migrate, and sign up at /registration/new"],
    [
      'app.resource("/widgets", new WidgetsResource(), { authenticate: true })',
      "then protect a resource (in src/app.ts)",
    ],
  ],
};

/** `wisent generate authentication` (`wisent g auth`). */
export async function generate(argv: string[], io: CliIO): Promise<number> {
  return guard(io, generateHelp, async () => {
    const { values } = parseCommandArgs(
      argv,
      { "dry-run": { type: "boolean", short: "d" }, force: { type: "boolean", short: "f" } },
      0,
    );
    if (values.help) {
      io.stdout.write(formatHelp(generateHelp));
      return 0;
    }
    const dryRun = values["dry-run"] === true;
    const result = generateAuthentication(io.cwd, { dryRun, force: values.force === true });
    const out = new Output(io);
    for (const action of result.actions) out.action(action.verb, action.path);
    if (dryRun) {
      out.hint("dry run: nothing was written");
      return 0;
    }
    const install =
      result.added.length > 0
        ? `npm install (package.json now lists ${result.added.join(", ")}: the reset mail needs it in production, with SMTP_URL), `
        : "";
    out.hint(
      result.plan.request.api
        ? "generated access tokens; next: wisent migrate, then POST /user and POST /tokens"
        : `generated authentication; next: ${install}wisent migrate, then sign up at /registration/new`,
    );
    return 0;
  });
}

export const destroyHelp: CommandHelp = {
  usage: "wisent destroy authentication [-y|--yes] [--dry-run]   (alias: wisent d auth)",
  summary:
    "Removes what generate authentication made, asking per file (y/n), and its lines in\nsrc/app.ts and the layout. When its migration has run, it is rolled back first (asked too).",
  options: [
    ["-y, --yes", "remove (and roll back) without asking"],
    ["-d, --dry-run", "list what would be removed; change nothing"],
  ],
  examples: [["wisent d auth -y", "removes everything without asking"]],
};

/** `wisent destroy authentication` (`wisent d auth`). */
export function destroy(argv: string[], io: CliIO): Promise<number> {
  return runDestroyCommand(argv, io, destroyHelp, 0, (request) =>
    destroyAuthentication(io.cwd, { ...request, database: appDatabase(io, request.out) }),
  );
}
