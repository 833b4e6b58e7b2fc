#!/usr/bin/env node
/**
 * The CLI's entry, loaded by bin/wisent.js (package.json `bin`). Everything lives in ./cli.ts so tests can run the
 * CLI in-process.
 * @module
 */
import { runCli } from "./cli.js";
import { processIO } from "./io.js";

// `wisent g r widget --dry-run | head`: once the reader has gone, the rest of the output has
// nowhere to go, which is no failure of ours. Exit quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

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
