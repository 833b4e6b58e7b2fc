import { newSessionSecret } from "../../middleware/session/session-secrets.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import type { CliIO } from "../io.js";

export const help: CommandHelp = {
  usage: "wisent secret",
  summary:
    "Prints a new random secret (32 bytes as 64 hex characters) for SESSION_SECRET.\nEvery environment but development and test refuses to start without one.",
  options: [],
  examples: [
    ["wisent secret", "a new secret"],
    ['echo "SESSION_SECRET=$(npx wisent secret)" >> .env', "into the app's .env"],
  ],
};

/** `wisent secret`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(argv, {}, 0);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    io.stdout.write(`${newSessionSecret()}\n`);
    return 0;
  });
}
