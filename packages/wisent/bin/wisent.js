#!/usr/bin/env node
// The `wisent` executable. It is committed (not built) so that npm links it on a fresh clone's
// `npm ci`, which links bins before the `prepare` script builds dist/; it loads the built CLI, and
// says what to run when the build is missing instead of failing with a module-not-found trace.
import { existsSync } from "node:fs";
import module from "node:module";

// V8's compiled code of every module loaded from here on (the CLI, the framework, the app's
// dist/server.js under `wisent start`) is kept on disk (Node's default folder, in the system's
// temp dir) and reused by the next run: less start-up time for every command.
module.enableCompileCache?.();

const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    "error: wisent is not built (no dist/cli/main.js in the wisent package).\n" +
      "Run `npm run build` at the repository root (or `npm ci`, which builds it), then try again.\n",
  );
  process.exit(1);
}
await import(main.href);
