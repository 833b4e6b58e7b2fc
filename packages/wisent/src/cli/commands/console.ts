import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import repl from "node:repl";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { WisentError } from "../../base/wisent-error.js";
import { envName, exportAppEnv, registerTypeScript, requireAppFile } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent console",
  summary:
    "Opens a REPL (node:repl) with the app in this folder loaded: `app`; `db`, what models and\nqueries take (as c.tx() is in a handler), and `database`, src/db.ts's Database; every model\nunder src/models/ by its exported name; the path helpers (`paths`, and each one by name).\n`await` works at the top level. History is kept in .wisent/console_history. The environment\nis GO_ENV or NODE_ENV (default development), with .env applied.",
  examples: [
    ["wisent console", "then: await Widget.all(db)"],
    ['> await Widget.create(db, { name: "bolt" })', "a new record"],
    ["> widgetPath({ widget_id: 1 })", '"/widgets/1"'],
    ["> app.routes().length", "how many routes"],
    ["GO_ENV=test wisent console", "the test database"],
    ["echo 'await Widget.all(db)' | wisent console", "from a script, a line at a time"],
  ],
};

/** The most lines `.wisent/console_history` keeps. */
const HISTORY_LINES = 1000;

/** What the console puts in scope, from the app's own modules. */
async function appContext(io: CliIO): Promise<Record<string, unknown>> {
  const appFile = requireAppFile(io, "src/app.ts");
  exportAppEnv(io);
  // The sources through tsx, as `wisent dev` runs them (not the bundled build `wisent routes`
  // reads): the app, src/db.ts and the models are then one module graph, sharing one `db`.
  await registerTypeScript();
  const loaded = (await import(pathToFileURL(appFile).href)) as { app?: unknown };
  const app = loaded.app as { name?: string; paths?: Record<string, unknown> } | undefined;
  if (!app || typeof app !== "object") {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `src/app.ts does not export the App as "app" (export const app = new App(...))`,
    );
  }
  const context: Record<string, unknown> = { app };
  const dbFile = join(io.cwd, "src", "db.ts");
  if (existsSync(dbFile)) {
    const { db } = (await import(pathToFileURL(dbFile).href)) as { db?: { kysely?: unknown } };
    // `db` is what models and queries take (the Kysely instance, as `c.tx()` is in a handler);
    // `database` the app's Database (`database.dialect`, `database.check()`).
    if (db !== undefined) {
      context.database = db;
      context.db = db.kysely ?? db;
    }
  }
  const paths = app.paths ?? {};
  context.paths = paths;
  for (const [name, helper] of Object.entries(paths)) context[name] = helper;
  const models = join(io.cwd, "src", "models");
  if (existsSync(models)) {
    for (const file of readdirSync(models).sort()) {
      if (!/\.tsx?$/.test(file) || /\.(test|spec)\.tsx?$/.test(file) || file.endsWith(".d.ts")) {
        continue;
      }
      const module = (await import(pathToFileURL(join(models, file)).href)) as Record<
        string,
        unknown
      >;
      for (const [name, value] of Object.entries(module)) context[name] ??= value;
    }
  }
  return context;
}

function loadHistory(file: string): string[] {
  if (!existsSync(file)) return [];
  // node:repl keeps the newest entry first.
  return readFileSync(file, "utf8").split("\n").filter(Boolean).slice(-HISTORY_LINES).reverse();
}

/**
 * Writes the lines of `from` to the REPL's input one at a time: the next when the REPL shows its
 * prompt again (after an `await` has settled too), and the end of input after the last.
 */
function feedLines(from: NodeJS.ReadableStream, to: PassThrough, server: repl.REPLServer): void {
  const lines = createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY })[
    Symbol.asyncIterator
  ]();
  const showPrompt = server.displayPrompt.bind(server);
  const next = () => {
    lines.next().then(
      (line) => (line.done ? to.end() : to.write(`${line.value}\n`)),
      () => to.end(),
    );
  };
  server.displayPrompt = (preserveCursor?: boolean) => {
    showPrompt(preserveCursor);
    next();
  };
  next();
}

/** `wisent console`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(argv, {}, 0);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const context = await appContext(io);
    const out = new Output(io);
    const env = envName(process.env);
    const names = Object.keys(context).filter((name) => name !== "paths" && !name.endsWith("Path"));
    out.line(
      `Loading ${env} environment (wisent console): ${names.join(", ")}, paths and the path helpers. Ctrl-D or .exit leaves.`,
    );
    const historyDir = join(io.cwd, ".wisent");
    const historyFile = join(historyDir, "console_history");
    // Piped input (a script, a test) is fed a line at a time, each once the one before has
    // finished, so `const all = await Widget.all(db)` is done before the next line reads `all`.
    const input = io.isTTY ? io.stdin : new PassThrough();
    const server = repl.start({
      prompt: `${String((context.app as { name?: string }).name ?? "app")}(${env})> `,
      input,
      output: io.stdout as NodeJS.WritableStream,
      terminal: io.isTTY,
      useColors: io.color,
      ignoreUndefined: true,
    });
    Object.assign(server.context, context);
    // The REPL's own history for the arrow keys, and every line appended to the file.
    const withHistory = server as repl.REPLServer & { history?: string[] };
    if (io.isTTY) withHistory.history = loadHistory(historyFile);
    server.on("line", (line: string) => {
      if (line.trim() === "") return;
      mkdirSync(historyDir, { recursive: true });
      appendFileSync(historyFile, `${line.replace(/\n/g, " ")}\n`);
    });
    if (input instanceof PassThrough) feedLines(io.stdin, input, server);
    await new Promise<void>((resolve) => server.on("exit", () => resolve()));
    const database = context.database as { close?: () => Promise<void> } | undefined;
    await database?.close?.();
    return 0;
  });
}
