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
 * visit of the page). An app that wants Turbo Drive loads Turbo itself. Besides:
 * - the `visit` stream action: a record page whose record was destroyed goes to the list, and
 *   the list shows why (kept in sessionStorage across the load), unless the page is leaving by
 *   a form already (its own Destroy);
 * - rows sent to every reader (`live: { row }`) carry no CSRF token: their forms get the
 *   reader's own, from the page's `csrf-token` meta tag, before Turbo inserts them.
 */
const LIVE_SCRIPT = `import { StreamActions, session } from "./turbo.js";
session.drive = false;
const NOTICE = "wisent-live-notice";
let leaving = false;
addEventListener("submit", (event) => {
  if (!event.defaultPrevented) leaving = true;
});
StreamActions.visit = function () {
  if (leaving) return;
  const notice = this.getAttribute("notice");
  if (notice) sessionStorage.setItem(NOTICE, notice);
  location.assign(this.getAttribute("location") || "/");
};
addEventListener("turbo:before-stream-render", (event) => {
  const param = document.querySelector('meta[name="csrf-param"]')?.content;
  const token = document.querySelector('meta[name="csrf-token"]')?.content;
  const content = event.target.templateElement?.content;
  if (!param || !token || !content) return;
  for (const form of content.querySelectorAll("form")) {
    if (form.method.toLowerCase() === "get" || form.elements.namedItem(param)) continue;
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = param;
    field.value = token;
    form.prepend(field);
  }
});
const notice = sessionStorage.getItem(NOTICE);
if (notice) {
  sessionStorage.removeItem(NOTICE);
  const alert = document.createElement("div");
  alert.className = "alert alert-info";
  alert.setAttribute("role", "alert");
  alert.dataset.flash = "info";
  alert.textContent = notice;
  const flash = document.createElement("div");
  flash.className = "flash";
  flash.append(alert);
  (document.querySelector("main") || document.body).prepend(flash);
}
`;

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
