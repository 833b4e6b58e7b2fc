/**
 * `npm run tour`: runs the getting-started guide (docs/guides/getting-started.md) exactly as
 * printed, the way a new user types it after `npm ci` at the repository root, and checks each
 * command's output against what the guide shows.
 *
 * - The commands are the `$ ` lines of the fenced blocks under "## The tour" and then under
 *   "## Your first week" (each up to the next "## "), in order, run by bash in the folder the
 *   earlier `cd`s left (a leading `cd X && ...` moves it for what follows).
 * - A command whose printed output has an `error:` line must fail (exit non-zero); every other
 *   command must exit 0.
 * - A server command (`npm run dev`, `npm run demo`, `npm start`, `npx wisent start|dev`) runs in
 *   the background until its "listening on" line, and stays up for the commands after it until the
 *   next server command or the end; then it gets SIGINT, as Ctrl-C would send.
 * - Output check: every line the guide prints after a command (but `...` lines) must appear in
 *   the real output, in order, once ids, timestamps, durations, pids, the folders of absolute
 *   paths and spacing are normalised.
 * - `npm ci` at the front of a command is skipped when node_modules is there (CI has just run it).
 * - The folders the guide's `wisent new`s make (`readinglist/`, `blog/`) and the reading list's
 *   PostgreSQL databases (127.0.0.1:5432) must not exist before, and are removed after;
 *   the shop's development database is set aside meanwhile, as a fresh clone has none.
 *
 * Exits 1 naming the first command that failed or whose output differs.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import pg from "pg";

const repo = fileURLToPath(new URL("..", import.meta.url));
const SERVER = /^(\w+=\S+\s+)*(npm run (dev|demo)|npm start|npx wisent (start|dev))\b/;
/** A command that runs a generator (`wisent g ...`, `wisent generate ...`), which stamps migrations. */
const GENERATES = /\bwisent (g|generate)\b/;
const COMMAND_TIMEOUT_MS = 300_000;
const SERVER_TIMEOUT_MS = 120_000;

/**
 * The newest migration stamp a generator printed, in seconds (0 when none): two migrations made
 * in one second get a stamp the second after, which the wall clock may not have reached.
 */
export function newestStamp(output) {
  let newest = 0;
  for (const [, y, mo, d, h, mi, s] of output.matchAll(
    /\b(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_\w+\.[mc]?[jt]s\b/g,
  )) {
    newest = Math.max(newest, Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) / 1000);
  }
  return newest;
}

/** The guide the tour runs, from the repository root. */
export const GUIDE = "docs/guides/getting-started.md";

/** The apps the guide makes at the repository root: the tour's, then the first week's. */
export const APPS = ["readinglist", "blog"];
/** The databases the reading list's commands create, on the server its `.env` names. */
export const DATABASES = ["development", "test", "production"].map((env) => `readinglist_${env}`);
const PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * The sections run, in order: the first week goes on in the folder where the tour stopped. Each
 * ends at the next "## " heading (its "### " sub-sections are steps too).
 */
const SECTIONS = ["## The tour", "## Your first week"];

/** The steps of one section of the guide: `{ command, expected: string[] }` in the guide's order. */
export function sectionSteps(guide, heading) {
  const start = guide.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${GUIDE} has no "${heading}" section`);
  const next = /\n## /g;
  next.lastIndex = start + 1;
  const end = next.exec(guide)?.index ?? -1;
  const section = guide.slice(start, end < 0 ? undefined : end);
  const steps = [];
  for (const block of section.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    let current;
    let continued = false;
    for (const line of block[1].split("\n")) {
      if (continued) {
        // A command that goes on after a trailing backslash, as a shell reads it.
        current.command = `${current.command.slice(0, -1)}${line.trim()}`;
        continued = current.command.endsWith("\\");
      } else if (line.startsWith("$ ")) {
        current = { command: line.slice(2), expected: [] };
        steps.push(current);
        continued = current.command.endsWith("\\");
      } else if (current && line.trim() !== "" && line.trim() !== "...") {
        current.expected.push(line);
      }
    }
  }
  return steps;
}

/** Every step the runner takes: the tour's, then the first week's. */
export function tourSteps(guide) {
  return SECTIONS.flatMap((heading) => sectionSteps(guide, heading));
}

/** A step the guide shows failing (an `error:` line) must exit non-zero, and is no server. */
export function expectsFailure(step) {
  return step.expected.some((line) => line.startsWith("error:"));
}

/**
 * What may differ between two runs: ids, times, durations, pids, ports of temp servers, spacing,
 * and the folders of absolute paths (/tmp/x/blog/migrations -> <dir>/migrations).
 */
export function normalise(line) {
  return stripVTControlCharacters(line)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
    .replace(/\b\d{14}_/g, "<stamp>_")
    .replace(/\bpid \d+/g, "pid <pid>")
    .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, "<duration>")
    .replace(/(?<![\w.])(\/[\w.@+-]+)+\/(?=[\w.@+-])/g, "<dir>/")
    .replace(/\s+/g, " ")
    .trim();
}

/** The expected lines missing (in order) from `actual`; [] when all are there. */
export function missingLines(expected, actual) {
  const lines = actual.split("\n").map(normalise);
  let at = 0;
  for (const want of expected.map(normalise)) {
    const found = lines.indexOf(want, at);
    if (found < 0) return [want];
    at = found + 1;
  }
  return [];
}

function fail(message) {
  process.stderr.write(`\ntour: ${message}\n`);
  process.exitCode = 1;
}

async function stopServer(server) {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once("exit", r));
  process.kill(-server.child.pid, "SIGINT");
  const timer = setTimeout(() => process.kill(-server.child.pid, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

function startServer(command, cwd, env, expected) {
  const child = spawn("bash", ["-c", command], { cwd, env, detached: true });
  const server = { child, output: "" };
  const collect = (chunk) => {
    server.output += chunk;
    process.stdout.write(chunk);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  server.up = new Promise((resolveUp, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" within ${SERVER_TIMEOUT_MS / 1000} s`)),
      SERVER_TIMEOUT_MS,
    );
    // Up once it says so and has printed what the guide shows (the demo prints its routes
    // table after listening); the request that proves it answers is the tour's next command.
    const check = () => {
      if (
        /listening on http/.test(server.output) &&
        missingLines(expected, server.output).length === 0
      ) {
        clearTimeout(timer);
        resolveUp(server);
      }
    };
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening`));
    });
  });
  return server;
}

/** Which of {@link DATABASES} the PostgreSQL server has; `drop` removes them first. */
async function tourDatabases({ drop = false } = {}) {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    if (drop) {
      for (const name of DATABASES)
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname = ANY($1)", [
      DATABASES,
    ]);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

async function main() {
  const steps = tourSteps(readFileSync(join(repo, GUIDE), "utf8"));
  const made = APPS.map((name) => join(repo, name));
  for (const folder of made) {
    if (existsSync(folder)) throw new Error(`${folder} exists: the tour makes it; remove it first`);
  }
  const there = await tourDatabases();
  if (there.length > 0) {
    throw new Error(`the database ${there.join(", ")} exists: the tour makes it; drop it first`);
  }
  const env = { ...process.env, NO_COLOR: "1" };
  for (const name of ["FORCE_COLOR", "GO_ENV", "NODE_ENV", "DATABASE_URL", "PORT"])
    delete env[name];
  // As on a fresh clone: the demo migrates and seeds a shop database that does not exist yet.
  const demoDb = join(repo, "examples/shop/db/development.sqlite");
  const aside = `${demoDb}.tour-${process.pid}`;
  const moved = ["", "-wal", "-shm"].filter((suffix) => existsSync(demoDb + suffix));
  for (const suffix of moved) renameSync(demoDb + suffix, aside + suffix);
  let cwd = repo;
  let server;
  let lastGenerated = 0;
  try {
    for (const step of steps) {
      let command = step.command;
      process.stdout.write(`\n$ ${command}\n`);
      if (/^npm ci && /.test(command) && existsSync(join(repo, "node_modules"))) {
        command = command.replace(/^npm ci && /, "");
        process.stdout.write("(npm ci: done already)\n");
      }
      const cd = /^cd ([^\s&;]+) && (.*)$/.exec(command) ?? /^cd ([^\s&;]+)$/.exec(command);
      if (cd) {
        cwd = resolve(cwd, cd[1]);
        command = cd[2] ?? "true";
      }
      // A generator stamps migrations by the second, as a person typing never types two within
      // one: a command that generates waits for the second after the last one's (the guide's
      // order of migrations then holds on a fast machine too).
      const generates = GENERATES.test(command);
      while (generates && Math.floor(Date.now() / 1000) <= lastGenerated) {
        await new Promise((r) => setTimeout(r, 50));
      }
      let output;
      if (SERVER.test(command) && !expectsFailure(step)) {
        await stopServer(server);
        server = startServer(command, cwd, env, step.expected);
        output = (await server.up).output;
      } else {
        const result = spawnSync("bash", ["-c", command], {
          cwd,
          env,
          encoding: "utf8",
          timeout: COMMAND_TIMEOUT_MS,
          maxBuffer: 64 * 1024 * 1024,
        });
        output = `${result.stdout}${result.stderr}`;
        process.stdout.write(output);
        if ((result.status !== 0) !== expectsFailure(step)) {
          const wanted = expectsFailure(step) ? `, but ${GUIDE} shows it failing` : "";
          fail(`\`${step.command}\` exited ${result.status ?? result.signal}${wanted}`);
          return;
        }
      }
      if (generates) lastGenerated = Math.max(Math.floor(Date.now() / 1000), newestStamp(output));
      const missing = missingLines(step.expected, output);
      if (missing.length > 0) {
        fail(`\`${step.command}\` did not print what ${GUIDE} shows:\n  ${missing[0]}`);
        return;
      }
    }
    process.stdout.write(`\ntour: ${steps.length} commands ran as ${GUIDE} prints them\n`);
  } finally {
    await stopServer(server);
    for (const folder of made) rmSync(folder, { recursive: true, force: true });
    await tourDatabases({ drop: true });
    for (const suffix of ["", "-wal", "-shm"]) rmSync(demoDb + suffix, { force: true });
    for (const suffix of moved) renameSync(aside + suffix, demoDb + suffix);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
}
