import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { colorWanted, memoryIO } from "./io.js";
import { formatAction, Output } from "./output.js";

const ESC = "\u001b[";

describe("colorWanted", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true],
    [{ TERM: "dumb" }, true, false],
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "0" }, true, false],
    [{ FORCE_COLOR: "1", NO_COLOR: "1" }, false, true],
  ])("env %j, TTY %s -> %s", (env, tty, expected) => {
    expect(colorWanted(env, tty)).toBe(expected);
  });
});

describe("formatAction", () => {
  it("right-aligns every verb so the paths line up", () => {
    const lines = (["create", "update", "remove", "skip", "identical", "run"] as const).map(
      (verb) => formatAction(verb, "src/app.ts", false),
    );
    expect(lines).toEqual([
      "      create  src/app.ts",
      "      update  src/app.ts",
      "      remove  src/app.ts",
      "        skip  src/app.ts",
      "   identical  src/app.ts",
      "         run  src/app.ts",
    ]);
  });

  it("colours only the verb, and only when asked", () => {
    const plain = formatAction("create", "src/models/widget.ts", false);
    const coloured = formatAction("create", "src/models/widget.ts", true);
    expect(plain).not.toContain(ESC);
    expect(coloured).toContain(ESC);
    expect(coloured.endsWith("  src/models/widget.ts")).toBe(true);
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });
});

describe("Output", () => {
  it("writes plain action lines without a TTY or colour (NO_COLOR, pipes)", () => {
    const { io, stdout, stderr } = memoryIO({ cwd: "/", env: { NO_COLOR: "1" } });
    const out = new Output(io);
    out.action("create", "src/models/widget.ts");
    out.action("update", "src/app.ts");
    out.warn("careful");
    out.error("broken");
    expect(stdout()).toBe("      create  src/models/widget.ts\n      update  src/app.ts\n");
    expect(stderr()).toBe("warning: careful\nerror: broken\n");
  });

  it("colours when the IO says so", () => {
    const { io, stdout, stderr } = memoryIO({ cwd: "/", color: true });
    const out = new Output(io);
    out.action("remove", "src/actions/widgets.ts");
    out.error("broken");
    expect(stdout()).toContain(ESC);
    expect(stderr()).toContain(ESC);
  });

  it("prints a spinner as run/done lines when not on a TTY, with no control codes", () => {
    const { io, stdout } = memoryIO({ cwd: "/" });
    const spinner = new Output(io).spinner("npm install");
    spinner.update("npm install: added 12 packages");
    spinner.succeed("dependencies installed");
    spinner.succeed("again");
    expect(stdout()).toBe("         run  npm install\n        done  dependencies installed\n");
  });

  it("reports a failed step on stderr", () => {
    const { io, stdout, stderr } = memoryIO({ cwd: "/" });
    const spinner = new Output(io).spinner("npm install");
    spinner.fail();
    expect(stdout()).toBe("         run  npm install\n");
    expect(stderr()).toBe("error: npm install failed\n");
  });

  it("animates in place on a TTY and clears the line when done", () => {
    const { io, stdout } = memoryIO({ cwd: "/", isTTY: true });
    const spinner = new Output(io).spinner("npm install");
    spinner.succeed("dependencies installed");
    expect(stdout()).toContain("\r");
    expect(stdout()).toContain("npm install");
    expect(stdout().endsWith("        done  dependencies installed\n")).toBe(true);
  });
});

describe("memoryIO prompts", () => {
  it("answers prompts line by line, then with an empty string at the end of input", async () => {
    const { io, stdout } = memoryIO({ cwd: "/", input: "y\r\nn\n" });
    expect(await io.prompt("first? ")).toBe("y");
    expect(await io.prompt("second? ")).toBe("n");
    expect(await io.prompt("third? ")).toBe("");
    expect(stdout()).toBe("first? second? third? ");
  });
});
