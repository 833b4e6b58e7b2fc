import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as cli from "../../packages/wisent/src/cli/cli.js";
import * as io from "../../packages/wisent/src/cli/io.js";
import { CLI_REFERENCE, renderCliReference } from "./cli-reference.mjs";

describe("docs/reference/cli.md", () => {
  it("is what the CLI's help says today (else run npm run build && npm run docs:cli)", async () => {
    const page = await renderCliReference(cli, io);
    expect(readFileSync(CLI_REFERENCE, "utf8")).toBe(page);
  });

  it("has a section with the --help of every command", async () => {
    const page = await renderCliReference(cli, io);
    for (const command of cli.COMMANDS) {
      expect(page).toContain(`## wisent ${command.words.join(" ")}\n`);
    }
    expect(page).toContain("Usage: wisent migrate [up | down [--step N] | status]");
  });
});
