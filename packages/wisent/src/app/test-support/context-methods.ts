import { installContextExtensions } from "../../kernel/context-extensions.js";
import { csrfTokenExtension } from "../../middleware/csrf/csrf.js";
import { flashExtension, takeFlashExtension } from "../../middleware/flash/flash.js";
import { tExtension } from "../../middleware/i18n/i18n.js";
import { txExtension } from "../../middleware/transaction/transaction.js";
import { installAppContextMethods } from "../context-methods.js";

/**
 * Every Context method of Wisent's, for tests that run a single middleware or helper on a bare
 * Hono app (an App installs them itself, from the middleware it is given).
 */
export function installAllContextMethods(): void {
  installAppContextMethods();
  installContextExtensions([
    csrfTokenExtension,
    flashExtension,
    takeFlashExtension,
    tExtension,
    txExtension,
  ]);
}
