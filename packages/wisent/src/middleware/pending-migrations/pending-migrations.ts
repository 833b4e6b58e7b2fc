import { watch } from "node:fs";
import { resolve } from "node:path";
import type { Context, MiddlewareHandler } from "hono";
import { html } from "hono/html";
import { currentEnv } from "../../config/settings.js";
import type { Database } from "../../data/database.js";
import { pendingMigrationNames } from "../../data/migrations.js";
import { negotiateFormat } from "../../http/format.js";
import { phased } from "../../kernel/compose.js";

/** Options of {@link pendingMigrations}. */
export interface PendingMigrationsOptions {
  /** The migrations folder (default `migrations`, from the working directory). */
  folder?: string;
  /** On in `development` only (default: `currentEnv()`). */
  env?: string;
  /** The command the page tells to run (default `npx wisent migrate`). */
  command?: string;
}

/**
 * In development, answers every request with a page naming the migrations that have not run and
 * the command to run them (HTML, or JSON for JSON clients; status 503), instead of a raw
 * "no such table" 500. It checks once (a readdir and one query) and again when a file in the
 * folder changes; while migrations are pending, on each request, so the page goes away as soon
 * as they have run. Elsewhere (test, production) it does nothing. A database that cannot be
 * asked is not reported here: the request goes on to meet its own error.
 *
 * @param db - the app's database
 * @param options - the migrations `folder`, the `env` it is on in and the `command` shown
 * @returns the middleware (one that does nothing outside development)
 * @example
 * app.use(pendingMigrations(db));
 */
export function pendingMigrations(
  db: Database,
  options: PendingMigrationsOptions = {},
): MiddlewareHandler {
  if ((options.env ?? currentEnv()) !== "development") return (_c, next) => next();
  const folder = resolve(options.folder ?? "migrations");
  const command = options.command ?? "npx wisent migrate";
  let pending: Promise<string[]> | undefined;
  // Nothing was pending at the last check (and no file changed since): requests pass at once,
  // without a promise (an async layer here made every development request pay two turns).
  let clear = false;
  let watching = false;
  const check = (): Promise<string[]> => {
    if (!watching) {
      watching = true;
      watchFolder(folder, () => {
        pending = undefined;
        clear = false;
      });
    }
    // A database that cannot be asked is the request's own error to report, not this page's.
    return pendingMigrationNames(db, folder).catch(() => []);
  };
  return phased({
    before: (c) => {
      if (clear) return undefined;
      pending ??= check();
      const asked = pending;
      return asked.then((names) => {
        if (names.length === 0) {
          if (pending === asked) clear = true;
          return undefined;
        }
        pending = undefined; // while some are pending, ask again on the next request
        return answer(c, names, command);
      });
    },
  });
}

function watchFolder(folder: string, changed: () => void): void {
  try {
    watch(folder, { persistent: false }, changed).on("error", () => {});
  } catch {
    // No folder yet: nothing is pending, and a new folder means a restart of `wisent dev`.
  }
}

function wantsJson(c: Context): boolean {
  try {
    return negotiateFormat(c) === "json";
  } catch {
    return false;
  }
}

function answer(
  c: Context,
  names: readonly string[],
  command: string,
): Response | Promise<Response> {
  const message = `${names.length === 1 ? "a migration has" : `${names.length} migrations have`} not run: ${command}`;
  if (wantsJson(c)) {
    return c.json({ error: message, pendingMigrations: names, command }, 503);
  }
  const page = html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Pending migrations</title>
  </head>
  <body style="font-family: system-ui, sans-serif; max-width: 48rem; margin: 3rem auto; line-height: 1.5">
    <h1>Pending migrations</h1>
    <p>The database has not run ${names.length === 1 ? "this migration" : "these migrations"}:</p>
    <ul>
      ${names.map((name) => html`<li><code>migrations/${name}.ts</code></li>`)}
    </ul>
    <p>Run <code>${command}</code>, then reload this page.</p>
  </body>
</html>`;
  return c.html(page, 503);
}
