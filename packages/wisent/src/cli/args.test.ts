import { describe, expect, it } from "vitest";
import {
  type CommandHelp,
  formatHelp,
  guard,
  integerOption,
  parseCommandArgs,
  UsageError,
  usageFailure,
} from "./args.js";
import { memoryIO } from "./io.js";

const HELP: CommandHelp = {
  usage: "wisent demo <name> [--step N]",
  summary: "A demo command.",
  options: [["--step N", "how many"]],
  examples: [["wisent demo x", "run it"]],
};

describe("parseCommandArgs", () => {
  const options = { api: { type: "boolean" }, db: { type: "string" } } as const;

  it("reads flags and positionals", () => {
    const parsed = parseCommandArgs(["shop", "--api", "--db", "postgres"], options, 1);
    expect(parsed.positionals).toEqual(["shop"]);
    expect(parsed.values).toMatchObject({ api: true, db: "postgres" });
  });

  it.each([
    [["shop", "--apy"], "unknown option --apy"],
    [["shop", "--db"], "option --db needs a value"],
    [["shop", "--db", "--api"], "option --db needs a value"],
    [["shop", "--api=yes"], "option --api does not take a value"],
    [["shop", "extra"], 'unexpected argument "extra"'],
    [["a", "b", "c"], 'unexpected arguments "b" "c"'],
  ])("%j -> %s", (argv, message) => {
    expect(() => parseCommandArgs(argv, options, 1)).toThrow(new UsageError(message));
  });

  it("accepts --help and -h anywhere, even with extra arguments", () => {
    expect(parseCommandArgs(["a", "b", "-h"], options, 1).values.help).toBe(true);
  });
});

describe("integerOption", () => {
  it("returns the fallback when absent and the number when valid", () => {
    expect(integerOption({}, "step", 1, { min: 1 })).toBe(1);
    expect(integerOption({ step: "3" }, "step", 1, { min: 1 })).toBe(3);
  });

  it.each([["0"], ["-1"], ["1.5"], ["two"], [""], ["70000"]])("refuses %j", (raw) => {
    expect(() => integerOption({ port: raw }, "port", 1, { min: 1, max: 65_535 })).toThrow(
      /^--port must be a whole number from 1 to 65535, got /,
    );
  });
});

describe("formatHelp", () => {
  it("has the usage, options (with --help) and examples", () => {
    const text = formatHelp(HELP);
    expect(text).toBe(
      [
        "Usage: wisent demo <name> [--step N]",
        "",
        "A demo command.",
        "",
        "Options:",
        "  --step N    how many",
        "  -h, --help  show this help",
        "",
        "Examples:",
        "  wisent demo x  run it",
        "",
      ].join("\n"),
    );
  });
});

describe("usage failures", () => {
  it("print one error line, the usage and where help is; exit code 2", () => {
    const { io, stdout, stderr } = memoryIO({ cwd: "/" });
    expect(usageFailure(io, HELP, "missing the name")).toBe(2);
    expect(stdout()).toBe("");
    expect(stderr()).toBe(
      'error: missing the name\nusage: wisent demo <name> [--step N]\n(run "wisent demo --help" for details)\n',
    );
  });

  it("guard maps UsageError to 2 and other errors to 1", async () => {
    const { io, stderr } = memoryIO({ cwd: "/" });
    expect(
      await guard(io, HELP, async () => {
        throw new UsageError("bad");
      }),
    ).toBe(2);
    expect(
      await guard(io, HELP, async () => {
        throw new Error("database is down");
      }),
    ).toBe(1);
    expect(await guard(io, HELP, async () => 0)).toBe(0);
    expect(stderr()).toContain("error: bad\nusage: wisent demo");
    expect(stderr()).toContain("error: database is down\n");
  });
});
