import type { Context } from "hono";
import {
  PAGE_CSRF_TOKEN_KEY,
  PAGE_LANG_KEY,
  PAGE_READ_FLASH_KEY,
  PAGE_T_KEY,
} from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";

/** Flash messages by kind, e.g. `{ success: ["Widget was successfully created."] }`. */
export type FlashByKind = Record<string, string[]>;

/** Flash kinds the generated layout styles; any other string works too. */
export type FlashKind = "success" | "info" | "warning" | "danger" | "error" | (string & {});

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
  /**
   * Translates a message id (the id itself when there is no translation).
   * @param key - the message id
   * @param vars - values for its `{{name}}` placeholders
   * @returns the message in the request's language
   */
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

/** Each kind of hook under its own private key among the context's variables (no merging). */
const HOOK_KEYS = {
  readFlash: PAGE_READ_FLASH_KEY,
  csrfToken: PAGE_CSRF_TOKEN_KEY,
  lang: PAGE_LANG_KEY,
  t: PAGE_T_KEY,
} as const;

type HookKey = keyof typeof HOOK_KEYS;

/**
 * Adds page data providers for this request (used by the flash, CSRF and i18n middleware).
 * `hooks` should be a constant object: nothing is allocated per request.
 */
export function addPageHooks(c: Context, hooks: PageHooks): void {
  if (hooks.readFlash) c.set(HOOK_KEYS.readFlash as never, hooks.readFlash as never);
  if (hooks.csrfToken) c.set(HOOK_KEYS.csrfToken as never, hooks.csrfToken as never);
  if (hooks.lang) c.set(HOOK_KEYS.lang as never, hooks.lang as never);
  if (hooks.t) c.set(HOOK_KEYS.t as never, hooks.t as never);
}

function hook<K extends HookKey>(c: Context, kind: K): PageHooks[K] {
  return c.get(HOOK_KEYS[kind] as never) as PageHooks[K];
}

/**
 * The page data of one request, each part computed when first read. A class, so every page
 * shares one hidden class: an object literal with getters made per request gets a hidden class
 * of its own, whose transition V8 holds weakly, so the scavenger kept each request's page, and
 * through it the whole request, until a full GC (about 5 KB promoted a page; bench/load,
 * `--trace-gc-nvp`).
 */
class RequestPage implements Page {
  readonly csrfParam = "authenticity_token";
  #flash: FlashByKind | undefined;
  #token: string | undefined | null = null;

  constructor(readonly c: Context) {}

  get flash(): FlashByKind {
    this.#flash ??= hook(this.c, "readFlash")?.(this.c) ?? {};
    return this.#flash;
  }

  get csrfToken(): string | undefined {
    if (this.#token === null) this.#token = hook(this.c, "csrfToken")?.(this.c);
    return this.#token;
  }

  get lang(): string {
    return hook(this.c, "lang")?.(this.c) ?? "en-US";
  }

  /** An own function (not a method): templates take it apart, `const { t } = usePage()`. */
  readonly t = (key: string, vars?: Record<string, unknown>): string => {
    const translate = hook(this.c, "t");
    return translate ? translate(this.c, key, vars) : key;
  };
}

/**
 * The page data of a request; each part is computed when first read.
 * @param c - the request's context
 * @returns the page: flash, CSRF token, language, `t` and the context
 * @example const page = pageOf(c); page.lang; // "en-US"
 */
export function pageOf(c: Context): Page {
  return new RequestPage(c);
}

/** The page of the view being rendered now (rendering is synchronous: no provider is needed). */
let current: Page | undefined;

/**
 * Renders `render()` with `page` as the page `usePage()` returns, and restores the one before
 * (a view rendered inside another view's render sees its own page).
 *
 * @param page - the page `usePage()` answers while `render` runs
 * @param render - renders synchronously
 * @returns what `render` returns
 * @example
 * const html = withPage(pageOf(c), () => renderToString(<Show widget={widget} />));
 */
export function withPage<T>(page: Page, render: () => T): T {
  const previous = current;
  current = page;
  try {
    return render();
  } finally {
    current = previous;
  }
}

/**
 * The page being rendered, inside a view or layout rendered by `c.respond`.
 *
 * @returns the page of the view being rendered
 * @throws WisentError `E_APP_MISCONFIGURED` outside a view rendered by `c.respond` (or
 *   `withPage`)
 * @example
 * const Title = () => <h1>{usePage().t("widgets.title")}</h1>;
 */
export function usePage(): Page {
  if (!current)
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      "usePage() works only inside a view rendered by c.respond()",
    );
  return current;
}
