#!/usr/bin/env node
/**
 * The CLI's entry, loaded by bin/wisent.js (package.json `bin`). Everything lives in ./cli.ts so tests can run the
 * CLI in-process.
 * @module
 */
import { runCli } from "./cli.js";
import { processIO } from "./io.js";

runCli(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
