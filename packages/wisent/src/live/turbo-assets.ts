import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Context, Handler } from "hono";

/** Where `<LiveUpdates />` loads Turbo from: the app's live routes serve it. */
export const LIVE_SCRIPT_PATH = "/live/live.js";
/** Turbo 8 itself (`@hotwired/turbo`, a dependency of Wisent), served beside it. */
export const TURBO_SCRIPT_PATH = "/live/turbo.js";

/**
 * The page's live script: Turbo with Drive off, so the app's links and forms work as before and
 * Turbo only answers the `<turbo-stream-source>` of a live page (a refresh is still a Turbo
 * visit of the page). An app that wants Turbo Drive loads Turbo itself.
 */
const LIVE_SCRIPT = `import { session } from "./turbo.js";\nsession.drive = false;\n`;

const TURBO_FILE = "@hotwired/turbo/dist/turbo.es2017-esm.js";

/** Turbo's file: beside this module, or (bundled into an app's dist/) beside Wisent's package. */
function turboFile(): string {
  const local = createRequire(import.meta.url);
  try {
    return local.resolve(TURBO_FILE);
  } catch {
    return createRequire(local.resolve("wisent/package.json")).resolve(TURBO_FILE);
  }
}

let turbo: string | undefined;
function turboSource(): string {
  turbo ??= readFileSync(turboFile(), "utf8");
  return turbo;
}

function script(c: Context, body: string): Response {
  return c.body(body, 200, {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": "public, max-age=86400",
  });
}

/** `GET /live/live.js`. */
export const liveScriptHandler: Handler = function liveScript(c) {
  return script(c, LIVE_SCRIPT);
};

/** `GET /live/turbo.js`. */
export const turboScriptHandler: Handler = function turboScript(c) {
  return script(c, turboSource());
};
