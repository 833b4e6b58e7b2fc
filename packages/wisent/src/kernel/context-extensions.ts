import { Context, type MiddlewareHandler } from "hono";
import { CONTEXT_EXTENSIONS_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";

/**
 * The methods Wisent adds to Hono's Context (`c.respond`, `c.tx`, `c.flash`...), installed in
 * this one place, by the App (app/context-methods.ts) when it is made and by the middleware it
 * is given, never as a side effect of importing a module. `Context.prototype` is shared by
 * everything in the process that uses this copy of Hono, so an install checks that the name is
 * free or already Wisent's own, and throws naming the property otherwise.
 */

// biome-ignore lint/suspicious/noExplicitAny: a method of any signature, called with Context as this
type Method = (this: Context, ...args: any[]) => unknown;

/** One method added to Context: `c[name](...)` runs `method`. */
export interface ContextExtension {
  readonly name: string;
  readonly method: Method;
}

/**
 * A method of Wisent's for Context.
 *
 * @example
 * export const txExtension = contextExtension("tx", function tx(this: Context) { ... });
 */
export function contextExtension(name: string, method: Method): ContextExtension {
  return { name, method };
}

/** What this module put on Context.prototype, by name (its own, so installing again is fine). */
const installed = new Map<string, Method>();
/** The placeholders among them (see {@link needsMiddleware}): a real method may replace them. */
const placeholders = new Set<Method>();

/**
 * Installs `extensions` on Context.prototype. A name already installed by this module keeps its
 * method unless `replace` allows (a placeholder gives way to the real method); a name defined by
 * anything else (Hono itself, another library, a second copy of Wisent sharing this Hono) throws
 * an Error naming it, before anything is installed.
 */
export function installContextExtensions(extensions: readonly ContextExtension[]): void {
  const proto = Context.prototype as unknown as Record<string, unknown>;
  for (const { name, method } of extensions) {
    const ours = installed.get(name);
    if (ours !== undefined) {
      if (ours !== method && !placeholders.has(ours) && !placeholders.has(method)) {
        throw collision(name, "another method of Wisent's (two copies of Wisent share this Hono?)");
      }
      continue;
    }
    if (name in proto) throw collision(name, "something else");
  }
  for (const { name, method } of extensions) {
    const ours = installed.get(name);
    // A placeholder never replaces a real method; a real method replaces a placeholder.
    if (ours === method || (ours !== undefined && placeholders.has(method))) continue;
    Object.defineProperty(proto, name, { value: method, configurable: true, writable: true });
    installed.set(name, method);
  }
}

function collision(name: string, owner: string): Error {
  return new WisentError(
    "E_APP_MISCONFIGURED",
    `Wisent cannot add c.${name}() to Hono's Context: Context.prototype.${name} is already defined by ${owner}. ` +
      `Remove the library or code that defines it, or keep one copy of Wisent and Hono in the app (npm ls hono).`,
  );
}

/**
 * A placeholder for a method that a middleware brings (`c.tx()` comes with `transaction()`):
 * until an app uses that middleware, calling it throws an Error naming the middleware instead
 * of a TypeError about a missing function. `fallback`, when given, answers instead (`c.t(key)`
 * without `i18n()` is the key).
 *
 * @example
 * needsMiddleware("tx", "transaction()", "app.use(transaction(db))")
 */
export function needsMiddleware(
  name: string,
  middleware: string,
  fix: string,
  fallback?: Method,
): ContextExtension {
  const method: Method =
    fallback ??
    (() => {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `c.${name}() needs the ${middleware} middleware, which this app does not use: ${fix}`,
      );
    });
  placeholders.add(method);
  return { name, method };
}

const EXTENSIONS: typeof CONTEXT_EXTENSIONS_KEY = CONTEXT_EXTENSIONS_KEY;
type Tagged = MiddlewareHandler & { [EXTENSIONS]?: readonly ContextExtension[] };

/**
 * `middleware`, carrying the Context methods it brings: the App installs them when it is given
 * the middleware.
 *
 * @example
 * return bringsContextMethods(phased({ before }), [txExtension]);
 */
export function bringsContextMethods<M extends MiddlewareHandler>(
  middleware: M,
  extensions: readonly ContextExtension[],
): M {
  const tagged = middleware as Tagged;
  tagged[EXTENSIONS] = [...(tagged[EXTENSIONS] ?? []), ...extensions];
  return middleware;
}

/** Installs the Context methods the given middleware bring (see {@link bringsContextMethods}). */
export function installMiddlewareExtensions(middleware: readonly MiddlewareHandler[]): void {
  for (const fn of middleware) {
    const extensions = (fn as Tagged)[EXTENSIONS];
    if (extensions) installContextExtensions(extensions);
  }
}
