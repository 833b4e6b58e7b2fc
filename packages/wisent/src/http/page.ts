import type { Context } from "hono";
import { createContext, useContext } from "hono/jsx";

/** Flash messages by kind, e.g. `{ success: ["Widget was successfully created."] }`. */
export type FlashByKind = Record<string, string[]>;

/** What a layout or view can know about the page being rendered. */
export interface Page {
  /** Flash messages to show now; reading them marks them shown (they will not appear again). */
  readonly flash: FlashByKind;
  /** The masked CSRF token for forms and the `csrf-token` meta tag (undefined without `csrf()`). */
  readonly csrfToken: string | undefined;
  /** The form field carrying the token: `authenticity_token`. */
  readonly csrfParam: string;
  /** The request's language, e.g. `en-US` (for `<html lang>`). */
  readonly lang: string;
  /** Translates a message id (the id itself when there is no translation). */
  t(key: string, vars?: Record<string, unknown>): string;
  /** The request context, for anything else. */
  readonly c: Context;
}

/**
 * Hooks the middleware install so pages can reach their data without the http layer importing
 * them (flash, CSRF and i18n each register one on the context). Each hook takes the request's
 * context, so a middleware registers the same constant object on every request.
 */
export interface PageHooks {
  readFlash?: (c: Context) => FlashByKind;
  csrfToken?: (c: Context) => string;
  lang?: (c: Context) => string | undefined;
  t?: (c: Context, key: string, vars?: Record<string, unknown>) => string;
}

declare module "hono" {
  interface ContextVariableMap {
    /** Page data providers installed by the flash, CSRF and i18n middleware. */
    pageHooks: PageHooks | undefined;
  }
}

/** Hooks merged for one request (the constants middleware register are never changed). */
const MERGED = Symbol("wisent.mergedPageHooks");
type MergedHooks = PageHooks & { [MERGED]?: true };

/**
 * Adds page data providers for this request (used by the flash, CSRF and i18n middleware).
 * `hooks` should be a constant: it is kept as is when it is the request's first.
 */
export function addPageHooks(c: Context, hooks: PageHooks): void {
  const current = c.get("pageHooks") as MergedHooks | undefined;
  if (!current) {
    c.set("pageHooks", hooks);
    return;
  }
  const merged: MergedHooks = current[MERGED] ? current : { ...current, [MERGED]: true };
  if (hooks.readFlash) merged.readFlash = hooks.readFlash;
  if (hooks.csrfToken) merged.csrfToken = hooks.csrfToken;
  if (hooks.lang) merged.lang = hooks.lang;
  if (hooks.t) merged.t = hooks.t;
  if (merged !== current) c.set("pageHooks", merged);
}

/** The page data of a request; each part is computed when first read. */
export function pageOf(c: Context): Page {
  const hooks = (): PageHooks => c.get("pageHooks") ?? {};
  let flash: FlashByKind | undefined;
  let token: string | undefined | null = null;
  return {
    get flash() {
      flash ??= hooks().readFlash?.(c) ?? {};
      return flash;
    },
    get csrfToken() {
      if (token === null) token = hooks().csrfToken?.(c);
      return token;
    },
    csrfParam: "authenticity_token",
    get lang() {
      return hooks().lang?.(c) ?? "en-US";
    },
    t(key, vars) {
      const translate = hooks().t;
      return translate ? translate(c, key, vars) : key;
    },
    c,
  };
}

/** The hono/jsx context carrying the current {@link Page} while a view renders. */
export const PageContext = createContext<Page | undefined>(undefined);

/**
 * The page being rendered, inside a view or layout rendered by `c.respond`.
 *
 * @example
 * const Title = () => <h1>{usePage().t("widgets.title")}</h1>;
 */
export function usePage(): Page {
  const page = useContext(PageContext);
  if (!page) throw new Error("usePage() works only inside a view rendered by c.respond()");
  return page;
}
