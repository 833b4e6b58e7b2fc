/**
 * The `wisent` command: a table of sub-commands (with their aliases), each loaded only when
 * it runs so that `wisent --help` starts fast.
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../base/package-root.js";
import { formatHelp, usageFailure } from "./args.js";
import type { CliIO } from "./io.js";

/** A command's entry point: arguments after the command words; resolves with the exit code. */
export type CommandRun = (argv: string[], io: CliIO) => Promise<number>;

interface CommandEntry {
  /** Words that select it: `["generate", "resource"]`. */
  words: readonly string[];
  /** Other spellings of the same words: `["g", "r"]`. */
  aliases: readonly (readonly string[])[];
  summary: string;
  load: () => Promise<CommandRun>;
}

/** Every command, in the order `wisent --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    words: ["new"],
    aliases: [],
    summary: "create a new app in ./<name>",
    load: async () => (await import("./commands/new.js")).run,
  },
  {
    words: ["generate", "resource"],
    aliases: [
      ["g", "r"],
      ["g", "resource"],
      ["generate", "r"],
    ],
    summary: "generate a resource: model, migration, handlers, templates, tests",
    load: async () => (await import("./commands/generate.js")).run,
  },
  {
    words: ["destroy", "resource"],
    aliases: [
      ["d", "r"],
      ["d", "resource"],
      ["destroy", "r"],
    ],
    summary: "remove what generate resource made",
    load: async () => (await import("./commands/destroy.js")).run,
  },
  {
    words: ["generate", "authentication"],
    aliases: [
      ["g", "auth"],
      ["g", "authentication"],
      ["generate", "auth"],
    ],
    summary:
      "generate sign-up, sign-in, sign-out, password reset, email verification and an account page (User model, tests)",
    load: async () => (await import("./commands/authentication.js")).generate,
  },
  {
    words: ["destroy", "authentication"],
    aliases: [
      ["d", "auth"],
      ["d", "authentication"],
      ["destroy", "auth"],
    ],
    summary: "remove what generate authentication made",
    load: async () => (await import("./commands/authentication.js")).destroy,
  },
  {
    words: ["generate", "job"],
    aliases: [["g", "job"]],
    summary: "generate a background job and its test, registered in src/app.ts",
    load: async () => (await import("./commands/job.js")).generate,
  },
  {
    words: ["destroy", "job"],
    aliases: [["d", "job"]],
    summary: "remove what generate job made",
    load: async () => (await import("./commands/job.js")).destroy,
  },
  {
    words: ["generate", "mailer"],
    aliases: [["g", "mailer"]],
    summary: "generate a mailer: TSX mails, their previews, subjects and test",
    load: async () => (await import("./commands/mailer.js")).generate,
  },
  {
    words: ["destroy", "mailer"],
    aliases: [["d", "mailer"]],
    summary: "remove what generate mailer made",
    load: async () => (await import("./commands/mailer.js")).destroy,
  },
  {
    words: ["generate", "migration"],
    aliases: [
      ["g", "migration"],
      ["g", "m"],
      ["generate", "m"],
    ],
    summary: "generate a migration: add_x_to_y, remove_x_from_y, create_y or empty",
    load: async () => (await import("./commands/migration.js")).generate,
  },
  {
    words: ["destroy", "migration"],
    aliases: [
      ["d", "migration"],
      ["d", "m"],
      ["destroy", "m"],
    ],
    summary: "roll back (if it ran) and remove a migration",
    load: async () => (await import("./commands/migration.js")).destroy,
  },
  {
    words: ["routes"],
    aliases: [],
    summary: "print the app's route table",
    load: async () => (await import("./commands/routes.js")).run,
  },
  {
    words: ["console"],
    aliases: [["c"]],
    summary: "a REPL with the app, its models, db and path helpers loaded",
    load: async () => (await import("./commands/console.js")).run,
  },
  {
    words: ["run"],
    aliases: [],
    summary: "run a script in the app's environment (.env, its database), as Rails' runner",
    load: async () => (await import("./commands/run.js")).run,
  },
  {
    words: ["openapi"],
    aliases: [],
    summary: "print the app's OpenAPI 3.1 document",
    load: async () => (await import("./commands/openapi.js")).run,
  },
  {
    words: ["migrate"],
    aliases: [],
    summary: "run, revert or list database migrations",
    load: async () => (await import("./commands/migrate.js")).run,
  },
  {
    words: ["db"],
    aliases: [],
    summary: "create, drop, seed, reset or roll back the database",
    load: async () => (await import("./commands/db.js")).run,
  },
  {
    words: ["storage"],
    aliases: [],
    summary: "prune stored files no record names; migrate-keys moves old files into <app>/<env>/",
    load: async () => (await import("./commands/storage.js")).run,
  },
  {
    words: ["jobs"],
    aliases: [],
    summary: "list, work, retry or discard the app's background jobs",
    load: async () => (await import("./commands/jobs.js")).run,
  },
  {
    words: ["dev"],
    aliases: [],
    summary: "run the app and restart it when a file changes",
    load: async () => (await import("./commands/dev.js")).run,
  },
  {
    words: ["build"],
    aliases: [],
    summary: "compile the app to JavaScript in dist/ (what start and migrate run)",
    load: async () => (await import("./commands/build.js")).run,
  },
  {
    words: ["start"],
    aliases: [],
    summary: "run the compiled app (building it first if needed), optionally on several workers",
    load: async () => (await import("./commands/start.js")).run,
  },
  {
    words: ["secret"],
    aliases: [],
    summary: "print a new random SESSION_SECRET",
    load: async () => (await import("./commands/secret.js")).run,
  },
];

const USAGE = "wisent <command> [options]";

/** The text of `wisent --help`. */
export function mainHelp(): string {
  const rows = COMMANDS.map((c) => {
    const alias = c.aliases[0] ? ` (${c.aliases[0].join(" ")})` : "";
    return [`${c.words.join(" ")}${alias}`, c.summary] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `Usage: ${USAGE}`,
    "",
    "Wisent: resource routing, generators and a real database for Hono apps.",
    "",
    "Commands:",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    "Options:",
    "  -h, --help     show help (also after any command: wisent new --help)",
    "  -v, --version  print the version",
    "",
    "Examples:",
    "  wisent new shop                          a web app in ./shop",
    "  wisent g r widget title description:nulls.Text",
    "  wisent migrate                           run pending migrations",
    "  wisent routes                            the route table",
    "",
  ].join("\n");
}

function version(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** Finds the command `argv` starts with; returns it and the remaining arguments. */
export function resolveCommand(
  argv: readonly string[],
): { entry: CommandEntry; rest: string[] } | { group: string } | undefined {
  for (const entry of COMMANDS) {
    for (const words of [entry.words, ...entry.aliases]) {
      if (words.every((word, i) => argv[i] === word)) {
        return { entry, rest: argv.slice(words.length) };
      }
    }
  }
  // `wisent generate` without a generator: name the group so the error can list its generators.
  const first = argv[0];
  const group = COMMANDS.find(
    (c) => c.words.length > 1 && [c.words, ...c.aliases].some((w) => w[0] === first),
  );
  return group ? { group: group.words[0] as string } : undefined;
}

/**
 * Runs the CLI with `argv` (without node and the script) and resolves with the exit code:
 * 0 ok, 1 failure, 2 bad usage.
 * @example process.exitCode = await runCli(process.argv.slice(2), processIO());
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? argv.slice(1) : [];
    if (topic.length > 0) return runCli([...topic, "--help"], io);
    io.stdout.write(mainHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-v") {
    io.stdout.write(`wisent ${version()}\n`);
    return 0;
  }
  const found = resolveCommand(argv);
  if (found === undefined) {
    const message = first.startsWith("-")
      ? `unknown option ${first}`
      : `unknown command "${first}"`;
    return usageFailure(io, { usage: USAGE }, message);
  }
  if ("group" in found) {
    const generators = COMMANDS.filter((c) => c.words[0] === found.group);
    const usage = `wisent ${found.group} <${generators.map((c) => c.words[1]).join("|")}> ...`;
    if (argv.includes("--help") || argv.includes("-h")) {
      io.stdout.write(
        formatHelp({
          usage,
          summary: generators.map((c) => `${c.words.join(" ")}: ${c.summary}`).join("\n"),
          examples: [
            [`wisent ${found.group} resource --help`, "the options of the resource command"],
          ],
        }),
      );
      return 0;
    }
    const what = argv[1] === undefined ? "missing" : `unknown: "${argv[1]}"`;
    return usageFailure(io, { usage }, `which ${found.group}? (${what}; try "resource")`);
  }
  const run = await found.entry.load();
  return run(found.rest, io);
}
