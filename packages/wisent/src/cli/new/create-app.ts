/**
 * Making a new app: `wisent new` and `npm create wisent` (the create-wisent package) both run
 * {@link createApp}, and differ only in the command they name in their help and hints.
 * @module
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { titleize, underscore } from "../../naming/index.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { type PlannedFile, planApp } from "./app-template.js";
import { databaseSteps, readmeDatabaseSteps } from "./database-steps.js";
import { dockerVars } from "./docker-vars.js";
import { npmInstall } from "./install.js";
import { completeLockfile } from "./lockfile-optionals.js";
import { APP_TOOL_VERSIONS, appDependencies, driverDependency, wisentPackage } from "./versions.js";

/** How the app maker was started: the command its help and retry hints name. */
export interface CreateAppCommand {
  /** `wisent new`, or `npm create wisent@latest` */
  readonly name: string;
  /** Written between the path and the options (`--` for npm create, which keeps the rest for npm). */
  readonly optionsAfter?: string;
  /** `--dev` links this checkout: only the `wisent` of a checkout offers it. */
  readonly dev: boolean;
}

/** `wisent new`. */
export const WISENT_NEW: CreateAppCommand = { name: "wisent new", dev: true };

/** `npm create wisent@latest` (the create-wisent package). */
export const NPM_CREATE: CreateAppCommand = {
  name: "npm create wisent@latest",
  optionsAfter: "--",
  dev: false,
};

/** The help of the app maker started as `command`. */
export function createAppHelp(command: CreateAppCommand): CommandHelp {
  const name = command.name;
  const opts = (options: string) =>
    ` ${command.optionsAfter ? `${command.optionsAfter} ` : ""}${options}`;
  return {
    usage: `${name} <path>${opts(`[--api] [--db sqlite|postgres|mysql] [--skip-install] [--skip-git]${command.dev ? " [--dev]" : ""} [-y]`)}`,
    summary:
      "Creates a complete app in the folder <path> (./<name>, or any path: the app is named after its\nlast part): the App with its middleware, a home page, layout, styles, the script behind\ndata-method/data-confirm links, tests, TypeScript, Biome and Vitest set up, and a git repository.\nIt asks no questions: every choice is an option below, so it runs the same unattended.",
    options: [
      ["--api", "a JSON API: no templates, session cookie, CSRF or translations"],
      [
        "--db <kind>",
        "sqlite (default, a file under db/), postgres or mysql: sets DATABASE_URL in .env",
      ],
      ["--skip-install", "do not run npm install"],
      ["--skip-git", "do not run git init"],
      ["-y, --yes", "accepted, and changes nothing: no question is ever asked"],
      ...(command.dev
        ? [
            [
              "--dev",
              "depend on this Wisent checkout (file: links) instead of the published package",
            ] as [string, string],
          ]
        : []),
    ],
    examples: [
      [`${name} shop`, "a web app in ./shop"],
      [`${name} ~/code/blog`, "a web app named blog in ~/code/blog"],
      [`${name} inventory${opts("--api --db postgres")}`, "a JSON API on PostgreSQL"],
    ],
  };
}

const DATABASES = ["sqlite", "postgres", "mysql"] as const;
type DatabaseKind = (typeof DATABASES)[number];
/** Names that would clash with the app's own dependencies on npm. */
const TAKEN = new Set(["wisent", "hono", "zod", "typescript", "vitest", "node_modules"]);

/**
 * Why `name` cannot name an app, or undefined: letters, digits, `-` and `_`, starting with a
 * letter (it becomes the folder, the npm package and `new App({ name })`).
 * @example validateAppName("my-shop") // undefined
 */
export function validateAppName(name: string): string | undefined {
  if (name.trim() === "") return "the app name is empty";
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    return `invalid app name ${JSON.stringify(name)}: use letters, digits, "-" and "_", starting with a letter`;
  }
  if (name.length > 100)
    return `app name ${JSON.stringify(name)} is too long (at most 100 characters)`;
  if (TAKEN.has(name.toLowerCase())) {
    return `app name ${JSON.stringify(name)} is the name of one of its dependencies: choose another`;
  }
  return undefined;
}

function developmentUrl(db: DatabaseKind, name: string): string {
  const database = `${underscore(name)}_development`;
  if (db === "postgres") return `postgres://postgres@127.0.0.1:5432/${database}`;
  if (db === "mysql") return `mysql://root@127.0.0.1:3306/${database}`;
  return "sqlite:db/development.sqlite";
}

/**
 * Makes a new app as `wisent new <path> ...` does (or `npm create wisent@latest`, as `command`
 * says): writes the files, `git init`, `npm install`, then prints the next steps. When npm
 * install fails it says why and how to retry, removes what it created (so the same command
 * works again once the cause is fixed), and resolves with 1.
 * @example await createApp(["shop", "--api"], processIO(), WISENT_NEW)
 */
export async function createApp(
  argv: string[],
  io: CliIO,
  command: CreateAppCommand,
): Promise<number> {
  const help = createAppHelp(command);
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        api: { type: "boolean" },
        db: { type: "string" },
        "skip-install": { type: "boolean" },
        "skip-git": { type: "boolean" },
        // `npm create x -- --yes` is a habit create-astro and create-next-app honour: accepted,
        // with nothing to answer.
        yes: { type: "boolean", short: "y" },
        ...(command.dev ? { dev: { type: "boolean" as const } } : {}),
      },
      1,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const given = positionals[0];
    if (given === undefined) throw new UsageError("missing the app name");
    const target = resolve(io.cwd, given.replace(/^~(?=$|\/)/, homedir()));
    const name = basename(target);
    const invalid = validateAppName(name);
    if (invalid) throw new UsageError(invalid);
    const enclosing = enclosingApp(dirname(target));
    if (enclosing) {
      throw new UsageError(
        `${enclosing} is already a Wisent app: create the new app outside it (cd out of it first), or use wisent g r inside it`,
      );
    }
    const db = (values.db ?? "sqlite") as string;
    if (!(DATABASES as readonly string[]).includes(db)) {
      throw new UsageError(`--db must be sqlite, postgres or mysql, got ${JSON.stringify(db)}`);
    }
    if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
      throw new UsageError(
        `${given} already exists and is not an empty directory: choose another name or remove it`,
      );
    }

    const api = values.api === true;
    const deps = appDependencies(values.dev === true, target);
    const existed = existsSync(target);
    const url = developmentUrl(db as DatabaseKind, name);
    const vars = {
      name,
      packageName: name.toLowerCase(),
      title: titleize(name),
      appKind: api ? "JSON API" : "web app",
      templatesNote: api ? "" : ", templates, translations",
      layoutRows: api
        ? ""
        : [
            "- `src/templates/`: TSX views and the layout; `usePaths()` gives typed route helpers",
            "- `src/locales/`: translations (`en-US.json`, `<resource>.en-US.json`)",
            "- `public/`: static files, served last (`/assets/application.css`, `application.js`)",
            "",
          ].join("\n"),
      databaseUrl: url,
      databaseSteps: readmeDatabaseSteps(databaseSteps(db as DatabaseKind, url)),
      database: db,
      ...dockerVars({ packageName: name.toLowerCase(), api, db: db as DatabaseKind }),
      wisentDependency: deps.wisent,
      honoDependency: deps.hono,
      zodDependency: deps.zod,
      typescriptVersion: APP_TOOL_VERSIONS.typescript,
      vitestVersion: APP_TOOL_VERSIONS.vitest,
      biomeVersion: APP_TOOL_VERSIONS.biome,
      typesNodeVersion: APP_TOOL_VERSIONS.typesNode,
      // The Node versions wisent supports: a new app says the same (one source, its package.json).
      nodeEngines: wisentPackage().engines.node,
    };
    const files = planApp(api ? "api" : "web", vars);
    const driver = driverDependency(db as DatabaseKind);
    if (driver) addDependency(files, ...driver);
    if (db !== "sqlite") {
      files.push({ path: ".env", template: "(--db)", contents: `DATABASE_URL=${url}\n` });
    }

    const out = new Output(io);
    const shown = given.replace(/\/+$/, "");
    out.action("create", `${shown}/`);
    for (const file of files) {
      const path = join(target, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.contents);
      out.action("create", `${shown}/${file.path}`);
    }
    if (!values["skip-git"]) await gitInit(target, io, out);
    if (!values["skip-install"] && !(await npmInstall(target, io, out))) {
      // Nothing half-made stays behind to trip the retry (it refuses a folder that is not empty).
      if (existed) {
        for (const entry of readdirSync(target)) rmSync(join(target, entry), { recursive: true });
      } else rmSync(target, { recursive: true, force: true });
      const flags = argv.filter((arg) => arg !== given);
      const retry = (extra: string[]) =>
        `${command.name} ${given}${flags.length + extra.length > 0 ? ` ${command.optionsAfter ? `${command.optionsAfter} ` : ""}${[...flags, ...extra].join(" ")}` : ""}`;
      out.error(
        `${name} was not created: npm install failed (its output is above), so ${existed ? `${shown}/ was emptied again` : `${shown}/ was removed`}. Fix the cause (the network, or the registry \`npm config get registry\` names), then run the same command again: ${retry([])}`,
      );
      out.hint(`  or create it without installing: ${retry(["--skip-install"])}`);
      return 1;
    }

    if (!values["skip-install"]) {
      for (const added of completeLockfile(target)) {
        out.action(
          "update",
          `package-lock.json: ${added.name}@${added.entry.version}, an optional dependency of ${added.dependent.replace(/^.*node_modules\//, "")} that the registry does not have, so that npm ci accepts the lock`,
        );
      }
    }
    out.line();
    out.heading(`Created ${name} (${api ? "JSON API" : "web app"}, ${db}).`);
    out.line("Next steps:");
    out.hint(`  cd ${shown}`);
    if (values["skip-install"]) out.hint("  npm install");
    for (const step of databaseSteps(db as DatabaseKind, url)) out.hint(`  ${step.command}`);
    out.hint("  npm run dev");
    return 0;
  });
}

/** Adds `name@range` to the planned package.json's dependencies, keeping them sorted. */
function addDependency(files: PlannedFile[], name: string, range: string): void {
  const manifest = files.find((file) => file.path === "package.json");
  // Internal: the app template always has its package.json.
  if (!manifest) throw new Error("the app template has no package.json");
  const text =
    typeof manifest.contents === "string"
      ? manifest.contents
      : Buffer.from(manifest.contents).toString("utf8");
  const pkg = JSON.parse(text) as { dependencies: Record<string, string> };
  pkg.dependencies = Object.fromEntries(
    Object.entries({ ...pkg.dependencies, [name]: range }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  manifest.contents = `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * The Wisent app folder `dir` is in (or is), or undefined: a folder with `src/app.ts` whose
 * package.json depends on wisent. `wisent new` refuses to nest a second app inside it.
 */
export function enclosingApp(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const manifest = join(at, "package.json");
    if (existsSync(join(at, "src", "app.ts")) && existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
          dependencies?: Record<string, string>;
        };
        if (pkg.dependencies?.wisent !== undefined) return at;
      } catch {
        // Not a package.json we can read: not an app of ours.
      }
    }
    if (dirname(at) === at) return undefined;
  }
}

/** `git init` in the new app (as Rails does: no commit). A missing git is a warning, not a failure. */
function gitInit(dir: string, io: CliIO, out: Output): Promise<void> {
  return new Promise((resolveDone) => {
    const child = spawn("git", ["init", "--quiet"], {
      cwd: dir,
      env: io.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let error = "";
    child.stderr.on("data", (chunk: Buffer) => {
      error += chunk.toString();
    });
    child.on("error", (cause) => {
      out.warn(`git init did not run (${cause.message}); run it yourself, or pass --skip-git`);
      resolveDone();
    });
    child.on("close", (code) => {
      if (code === 0) out.action("run", "git init");
      else out.warn(`git init failed (exit code ${code}): ${error.trim()}`);
      resolveDone();
    });
  });
}
