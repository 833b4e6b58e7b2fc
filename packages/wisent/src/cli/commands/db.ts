import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WisentError } from "../../base/wisent-error.js";
import { type Database, openDatabase } from "../../data/database.js";
import { createDatabase, databaseExists, dropDatabase } from "../../data/database-admin.js";
import { maskDatabaseUrl, parseDatabaseUrl } from "../../data/database-url.js";
import { migrateDown, migrateUp, migrationStatus } from "../../data/migrations.js";
import { withSqliteFileLock } from "../../data/sqlite-file-lock.js";
import { appEnv, databaseUrl, envName, exportAppEnv, registerTypeScript } from "../app-env.js";
import {
  type CommandHelp,
  formatHelp,
  guard,
  integerOption,
  parseCommandArgs,
  UsageError,
} from "../args.js";
import type { CliIO } from "../io.js";
import { Output, paint } from "../output.js";
import { migrationsFolder } from "./migrate.js";

export const help: CommandHelp = {
  usage: "wisent db <create | drop | seed | reset | rollback [--step N] | prepare>",
  summary: [
    "Manages the database of the environment (GO_ENV; DATABASE_URL, else db/<env>.sqlite; in",
    "test, TEST_DATABASE_URL, else the _test twin of .env's DATABASE_URL, else db/test.sqlite).",
    "  create    create it (the SQLite file, or the database on its server) unless it exists",
    "  drop      drop it (refused in production without --force)",
    "  seed      run db/seeds.ts (its default export) against it",
    "  reset     drop, create, migrate, seed",
    "  rollback  revert the last migration (--step N: the last N)",
    "  prepare   create it when missing and migrate it, one process at a time (replicas",
    "            starting together: the generated Dockerfile runs it before wisent start); in",
    "            test, start over when a migration that ran has no file any more (the app's",
    "            Vitest setup runs this before tests)",
    "Migrations themselves: wisent migrate [status].",
  ].join("\n"),
  options: [
    ["--step N", "with rollback: how many migrations to revert (default 1)"],
    ["--force", "with drop or reset: allow it in production"],
  ],
  examples: [
    ["wisent db create", "make the development database"],
    ["wisent db reset", "start over with the seeds"],
    ["wisent db rollback --step 2", "revert the last two migrations"],
    ["GO_ENV=test wisent db prepare", "what the tests run first"],
    ["GO_ENV=production wisent db prepare", "what the image runs before it starts"],
  ],
};

const SUBCOMMANDS = ["create", "drop", "seed", "reset", "rollback", "prepare"] as const;
type Sub = (typeof SUBCOMMANDS)[number];

/** `wisent db <create | drop | seed | reset | rollback [--step N] | prepare>`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { step: { type: "string" }, force: { type: "boolean" } },
      1,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const sub = positionals[0];
    if (sub === undefined) {
      throw new UsageError(`which db command? (use ${SUBCOMMANDS.join(", ")})`);
    }
    if (!(SUBCOMMANDS as readonly string[]).includes(sub)) {
      const moved: Record<string, string> = {
        migrate: "wisent migrate",
        status: "wisent migrate status",
      };
      const hint = moved[sub] ? `: run ${moved[sub]}` : `: use ${SUBCOMMANDS.join(", ")}`;
      throw new UsageError(`unknown db command "${sub}"${hint}`);
    }
    if (values.step !== undefined && sub !== "rollback") {
      throw new UsageError(`--step only goes with "rollback"`);
    }
    if (values.force && sub !== "drop" && sub !== "reset") {
      throw new UsageError(`--force only goes with "drop" or "reset"`);
    }
    const step = integerOption(values, "step", 1, { min: 1 });
    const tasks = new DbTasks(io);
    if ((sub === "drop" || sub === "reset") && tasks.envName === "production" && !values.force) {
      throw new UsageError(
        `refusing to ${sub} the production database ${tasks.masked} (add --force if you mean it)`,
      );
    }
    await tasks.run(sub as Sub, step);
    return 0;
  });
}

/** The db tasks of one app and environment; each prints what it did. */
class DbTasks {
  readonly env: Record<string, string | undefined>;
  readonly envName: string;
  readonly url: string;
  readonly masked: string;
  readonly #io: CliIO;
  readonly #out: Output;

  constructor(io: CliIO) {
    this.#io = io;
    this.#out = new Output(io);
    this.env = appEnv(io);
    this.envName = envName(this.env);
    this.url = databaseUrl(this.env, io.cwd);
    this.masked = maskDatabaseUrl(this.url);
  }

  async run(sub: Sub, step: number): Promise<void> {
    switch (sub) {
      case "create":
        return this.create();
      case "drop":
        return this.drop();
      case "seed":
        return this.seed();
      case "rollback":
        return this.rollback(step);
      case "reset":
        await this.drop();
        await this.create();
        await this.migrate();
        if (existsSync(join(this.#io.cwd, "db/seeds.ts"))) await this.seed();
        return;
      case "prepare":
        return this.prepare();
    }
  }

  async create(): Promise<void> {
    const did = await createDatabase(this.url, this.#io.cwd);
    this.#out.action(did === "created" ? "create" : "exists", `database ${this.masked}`);
  }

  async drop(): Promise<void> {
    const did = await dropDatabase(this.url, this.#io.cwd);
    this.#out.action(
      did === "dropped" ? "remove" : "skip",
      `database ${this.masked}${did === "missing" ? " (there was none)" : ""}`,
    );
  }

  /** Opens the database with the migrations folder `wisent migrate` would use (dist/ when built). */
  async #open<T>(work: (db: Database, folder: string) => Promise<T>): Promise<T> {
    const folder = await migrationsFolder(this.#io.cwd);
    const db = await openDatabase(this.url, { cwd: this.#io.cwd, env: this.envName });
    try {
      return await work(db, folder);
    } finally {
      await db.close();
    }
  }

  #print(verb: string, names: readonly string[]): void {
    for (const name of names) {
      this.#out.line(`${paint(this.#io, ["green", "bold"], verb.padStart(8))}  ${name}`);
    }
  }

  async migrate(): Promise<void> {
    const names = await this.#open((db, folder) => migrateUp(db, folder));
    if (names.length === 0) this.#out.line(`nothing to migrate (database ${this.masked})`);
    this.#print("migrated", names);
  }

  async rollback(step: number): Promise<void> {
    const names = await this.#open((db, folder) => migrateDown(db, folder, { step }));
    if (names.length === 0) this.#out.line(`nothing to revert (database ${this.masked})`);
    this.#print("reverted", names);
  }

  /**
   * Creates the database when missing, starts over when a migration that ran lost its file (test
   * only), migrates: safe when several processes do it at once (replicas starting together). On
   * a server, creating holds the server's lock (createDatabase) and Kysely's migrator its own;
   * a SQLite file is prepared under its file lock, one process after the other.
   */
  async prepare(): Promise<void> {
    const target = parseDatabaseUrl(this.url, this.#io.cwd);
    if (target.dialect === "sqlite" && target.file !== ":memory:") {
      await withSqliteFileLock(target.file, () => this.#prepare());
    } else await this.#prepare();
  }

  async #prepare(): Promise<void> {
    if (!(await databaseExists(this.url, this.#io.cwd))) await this.create();
    else if (this.envName === "test") {
      const gone = await this.#open(async (db, folder) =>
        (await migrationStatus(db, folder)).filter((m) => m.missing),
      );
      if (gone.length > 0) {
        this.#out.line(
          `migration ${gone.map((m) => m.name).join(", ")} ran here but has no file any more: recreating the test database`,
        );
        await this.drop();
        await this.create();
      }
    }
    await this.migrate();
  }

  /** Imports db/seeds.ts with the app's environment and runs its default export. */
  async seed(): Promise<void> {
    const file = join(this.#io.cwd, "db/seeds.ts");
    if (!existsSync(file)) {
      throw new WisentError(
        "E_NOT_AN_APP",
        `no db/seeds.ts in ${this.#io.cwd}: write one that exports a default async function`,
      );
    }
    // The seeds import the app's src/db.ts, which reads process.env: give it this environment.
    exportAppEnv(this.#io, { env: this.env, override: true });
    await registerTypeScript();
    const seeds = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (typeof seeds.default !== "function") {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        "db/seeds.ts does not export a default function (export default async function seed() {...})",
      );
    }
    try {
      await seeds.default();
    } finally {
      await this.#closeAppDatabase();
    }
    this.#out.action("done", `seeded ${this.masked} from db/seeds.ts`);
  }

  /** The app's src/db.ts keeps a pool open; close it so the command can exit. */
  async #closeAppDatabase(): Promise<void> {
    const file = join(this.#io.cwd, "src/db.ts");
    if (!existsSync(file)) return;
    const mod = (await import(pathToFileURL(file).href)) as {
      db?: { close?: () => Promise<void> };
    };
    await mod.db?.close?.();
  }
}
