import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, resolveCommand, runCli } from "./cli.js";
import { memoryIO } from "./io.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "wisent-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const { io, stdout, stderr } = memoryIO({ cwd: dir });
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

describe("wisent", () => {
  it("lists every command with --help, exit 0", async () => {
    const { code, stdout } = await cli("--help");
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toContain(command.words.join(" "));
    expect(stdout).toContain("generate resource (g r)");
  });

  it("prints the help and exits 2 without a command", async () => {
    const { code, stdout } = await cli();
    expect(code).toBe(2);
    expect(stdout).toContain("Usage: wisent <command>");
  });

  it("prints a new random 64-hex-character secret with `wisent secret`", async () => {
    const first = await cli("secret");
    const second = await cli("secret");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    expect(second.stdout).not.toBe(first.stdout);
  });

  it("prints the package version", async () => {
    const { code, stdout } = await cli("--version");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^wisent \d+\.\d+\.\d+/);
  });

  it.each([
    [["serve"], 'error: unknown command "serve"'],
    [["--verbose"], "error: unknown option --verbose"],
    [["generate"], 'error: which generate? (missing; try "resource")'],
    [["g", "model"], 'error: which generate? (unknown: "model"; try "resource")'],
    [["d"], 'error: which destroy? (missing; try "resource")'],
  ])("%j is a usage error (exit 2, one line, the usage)", async (argv, line) => {
    const { code, stdout, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[0]).toBe(line);
    expect(stderr.split("\n")[1]).toMatch(/^usage: wisent /);
  });

  it.each([
    [["g", "r", "widget"], ["generate", "resource"], ["widget"]],
    [["generate", "resource", "widget"], ["generate", "resource"], ["widget"]],
    [
      ["d", "r", "widget", "-y"],
      ["destroy", "resource"],
      ["widget", "-y"],
    ],
    [["migrate", "down"], ["migrate"], ["down"]],
  ])("resolves %j", (argv, words, rest) => {
    const found = resolveCommand(argv);
    expect(found && "entry" in found ? [found.entry.words, found.rest] : found).toEqual([
      words,
      rest,
    ]);
  });

  it.each(COMMANDS.map((c) => [c.words.join(" ")]))(
    "%s --help shows usage and examples",
    async (words) => {
      const { code, stdout, stderr } = await cli(...words.split(" "), "--help");
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: wisent /);
      expect(stdout).toContain("Examples:");
    },
  );
});

describe("wisent new: bad input writes nothing", () => {
  it.each([
    [[], "error: missing the app name"],
    [
      ["1shop"],
      'error: invalid app name "1shop": use letters, digits, "-" and "_", starting with a letter',
    ],
    [["my shop"], 'error: invalid app name "my shop"'],
    [["code/1shop"], 'error: invalid app name "1shop"'],
    [["code/my shop"], 'error: invalid app name "my shop"'],
    [["hono"], 'error: app name "hono" is the name of one of its dependencies: choose another'],
    [["shop", "--db", "oracle"], 'error: --db must be sqlite, postgres or mysql, got "oracle"'],
    [["shop", "--db"], "error: option --db needs a value"],
    [["shop", "--apii"], "error: unknown option --apii"],
    [["shop", "extra"], 'error: unexpected argument "extra"'],
  ])("%j", async (argv, line) => {
    const before = readdirSync(dir);
    const { code, stdout, stderr } = await cli("new", ...argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[0]?.startsWith(line)).toBe(true);
    expect(stderr).toContain("usage: wisent new <path>");
    expect(readdirSync(dir)).toEqual(before);
  });

  it("refuses a non-empty directory and leaves it alone", async () => {
    mkdirSync(join(dir, "taken"));
    writeFileSync(join(dir, "taken", "notes.txt"), "mine");
    const { code, stderr } = await cli("new", "taken", "--skip-install");
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(
      "error: taken already exists and is not an empty directory: choose another name or remove it",
    );
    expect(readdirSync(join(dir, "taken"))).toEqual(["notes.txt"]);
  });

  it.each([
    ["sqlite", ["npm run migrate      # create or update the database (db/development.sqlite)"]],
    [
      "postgres",
      [
        "npx wisent db create # create the database .env names (postgres://postgres@127.0.0.1:5432/reads_development)",
        "npm run migrate      # create or update its tables",
      ],
    ],
    [
      "mysql",
      [
        "npx wisent db create # create the database .env names (mysql://root@127.0.0.1:3306/reads_development)",
      ],
    ],
  ])("names the database steps of a %s app in its next steps and README", async (db, steps) => {
    const { code, stdout } = await cli("new", `${db}/reads`, "--skip-install", "--db", db);
    expect(code).toBe(0);
    const readme = readFileSync(join(dir, db, "reads", "README.md"), "utf8");
    for (const step of steps) {
      expect(readme).toContain(`\n${step}\n`);
      expect(stdout).toContain(`\n  ${step.split(" #")[0]?.trim()}\n`);
    }
    if (db !== "sqlite") expect(readme).not.toContain("db/development.sqlite");
  });

  it("accepts an existing empty directory", async () => {
    mkdirSync(join(dir, "empty"));
    const { code, stdout } = await cli("new", "empty", "--skip-install", "--api");
    expect(code).toBe(0);
    expect(stdout).toContain("      create  empty/src/app.ts\n");
    expect(existsSync(join(dir, "empty", "package.json"))).toBe(true);
  });
});
