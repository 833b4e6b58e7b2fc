#!/usr/bin/env node
// The `wisent` executable. It is committed (not built) so that npm links it on a fresh clone's
// `npm ci`, which links bins before the `prepare` script builds dist/; it loads the built CLI, and
// says what to run when the build is missing instead of failing with a module-not-found trace.
import { existsSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";

// V8's compiled code of every module loaded from here on (the CLI, the framework, the app's
// dist/server.js under `wisent start`) is kept on disk and reused by the next run: less start-up
// time for every command. In an app's folder the cache is the app's own, tmp/compile-cache
// (git-ignored), which `wisent build` fills with its bundles' code, so the first start after a
// build is warm too (for the same user: Node keeps each user's cache apart). Elsewhere, or when
// tmp/ cannot be written, Node's default folder in the system's temp dir.
const inApp = existsSync("src/server.ts") || existsSync("dist/server.js");
const appCache = inApp && module.enableCompileCache?.(join(process.cwd(), "tmp/compile-cache"));
if (appCache && appCache.status === module.constants.compileCacheStatus.FAILED) {
  module.enableCompileCache();
} else if (!inApp) {
  module.enableCompileCache?.();
}

const main = new URL("../dist/bundle/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    "error: wisent is not built (no dist/bundle/cli/main.js in the wisent package).\n" +
      "Run `npm run build` at the repository root (or `npm ci`, which builds it), then try again.\n",
  );
  process.exit(1);
}
await import(main.href);
