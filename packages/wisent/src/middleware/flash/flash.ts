import type { Context, MiddlewareHandler } from "hono";
import { WisentError } from "../../base/wisent-error.js";
import { addPageHooks, type FlashByKind, type FlashKind, type PageHooks } from "../../http/page.js";
import { phased } from "../../kernel/compose.js";
import { bringsContextMethods, contextExtension } from "../../kernel/context-extensions.js";
import { needsBefore } from "../../kernel/middleware-needs.js";
import { FLASH_SESSION_KEY } from "../session/session.js";

export { FLASH_SESSION_KEY, type FlashKind };

/**
 * Messages of one kind kept until shown: the latest few. A client that never follows the
 * redirects (a script keeping its cookie) must not grow its session without end.
 */
export const MAX_FLASH_PER_KIND = 3;

declare module "hono" {
  interface Context {
    /**
     * Adds a flash message (an identical pending one is shown once; only the latest
     * `MAX_FLASH_PER_KIND` of a kind are kept), shown on the next rendered page (this one, if it renders a layout
     * that reads them; otherwise the page after the redirect), then gone.
     *
     * @param kind - `success`, `info`, `warning`, `danger`, `error` or any other string
     * @param message - the text shown (escaped when rendered)
     * @throws WisentError `E_APP_MISCONFIGURED` when the app does not use `flashMessages()` (with `session()` before it)
     * @example
     * c.flash("success", c.t("widget.created.success"));
     * return c.redirectTo(303, "widgetPath", { widget_id: widget.id });
     */
    flash(kind: FlashKind, message: string): void;
    /**
     * Reads the pending flash messages and marks them shown (a layout's `page.flash` does).
     * @returns the messages by kind
     * @throws WisentError `E_APP_MISCONFIGURED` when the app does not use `flashMessages()` (with `session()` before it)
     */
    takeFlash(): FlashByKind;
  }
}

function sessionOf(c: Context) {
  const current = c.get("session");
  if (!current)
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      "flash messages need the session() middleware before flash()",
    );
  return current;
}

function pending(c: Context): FlashByKind {
  const stored = sessionOf(c).get<FlashByKind>(FLASH_SESSION_KEY);
  return stored && typeof stored === "object" ? stored : {};
}

function flash(this: Context, kind: FlashKind, message: string): void {
  const messages = pending(this);
  // The same message twice is shown once; of the rest, the latest few are kept.
  const others = (messages[kind] ?? []).filter((shown) => shown !== message);
  sessionOf(this).set(FLASH_SESSION_KEY, {
    ...messages,
    [kind]: [...others, message].slice(-MAX_FLASH_PER_KIND),
  });
}

function takeFlash(this: Context): FlashByKind {
  const messages = pending(this);
  sessionOf(this).delete(FLASH_SESSION_KEY);
  return messages;
}

/** `c.flash`, brought by {@link flash} (installed by the App, see kernel/context-extensions.ts). */
export const flashExtension = contextExtension("flash", flash);
/** `c.takeFlash`, brought by {@link flash} (installed by the App, see kernel/context-extensions.ts). */
export const takeFlashExtension = contextExtension("takeFlash", takeFlash);

/**
 * Flash messages kept in the session (Buffalo's model): `c.flash(kind, message)` adds one, a
 * rendered page's layout reads them (`<FlashByKind />` or `page.flash`) and they are gone;
 * redirects and responses that never read them keep them for the next request.
 * Needs `session()` before it.
 *
 * @returns the middleware; it brings `c.flash()` and `c.takeFlash()`
 * @throws WisentError `E_APP_MISCONFIGURED` (when given to `app.use`) naming `session()` when it is not before it
 * @example
 * app.use(session());
 * app.use(flashMessages());
 */
export function flashMessages(): MiddlewareHandler {
  const middleware = phased({
    before: (c) => {
      sessionOf(c);
      addPageHooks(c, FLASH_HOOKS);
    },
  });
  return needsBefore(
    bringsContextMethods(middleware, [flashExtension, takeFlashExtension]),
    "flashMessages()",
    "session()",
    "app.use(session()) before app.use(flashMessages())",
  );
}

/** Messages are read (and the session touched) only when a page shows them. */
const FLASH_HOOKS: PageHooks = { readFlash: (c) => c.takeFlash() };
