import { bindExtension } from "../http/bind.js";
import { ownerScopeExtension } from "../http/owner-scope.js";
import { redirectToExtension } from "../http/redirect.js";
import { respondExtension } from "../http/respond.js";
import {
  type ContextExtension,
  installContextExtensions,
  needsMiddleware,
} from "../kernel/context-extensions.js";
import { currentUserExtension } from "./current-user-extension.js";

/**
 * The Context methods every App has (`c.respond`, `c.bind`, `c.redirectTo`, `c.ownerScope`,
 * `c.currentUser`), and placeholders for those a middleware brings, which say which middleware
 * is missing when called in an app without it (the middleware installs the real method when
 * an App is given it; see kernel/context-extensions.ts).
 */
const APP_CONTEXT_METHODS: readonly ContextExtension[] = [
  respondExtension,
  bindExtension,
  redirectToExtension,
  ownerScopeExtension,
  currentUserExtension,
  needsMiddleware("tx", "transaction()", "app.use(transaction(db)) before the routes that call it"),
  needsMiddleware("flash", "flashMessages()", "app.use(session()) then app.use(flashMessages())"),
  needsMiddleware(
    "takeFlash",
    "flashMessages()",
    "app.use(session()) then app.use(flashMessages())",
  ),
  needsMiddleware("csrfToken", "csrf()", "app.use(session()) then app.use(csrf())"),
  // Without i18n() a message id translates to itself, as a missing one does.
  needsMiddleware("t", "i18n()", "", (key: string) => key),
];

/**
 * Installs the Context methods of every App (once per process; an App made later finds them).
 * Hono apps that run Wisent's helpers without an App (tests of a single middleware) call it too.
 *
 * @example
 * installAppContextMethods();
 */
export function installAppContextMethods(): void {
  installContextExtensions(APP_CONTEXT_METHODS);
}
