import type { Context, MiddlewareHandler } from "hono";
import i18next, { type i18n as I18nInstance, type TFunction } from "i18next";
import { phased } from "../../kernel/compose.js";
import { bringsContextMethods, contextExtension } from "../../kernel/context-extensions.js";
import "../../http/context-vars.js";
import { type Logger, sharedLogger } from "../../http/logger.js";
import { addPageHooks, type PageHooks } from "../../http/page.js";
import "../session/session.js";
import { BoundedMemo } from "../../base/bounded-memo.js";
import { TRANSLATIONS_KEY } from "../../base/symbols.js";
import { requestCookie } from "../../http/request-cookie.js";
import { requestHeader } from "../../http/request-header.js";
import { matchLanguage, parseAcceptLanguage } from "./language.js";
import { flattenMessages, loadLocaleDirectory, type Messages } from "./locale-files.js";

declare module "hono" {
  interface ContextVariableMap {
    /** The request's language, set by `i18n()` (e.g. `en-US`). */
    language: string | undefined;
  }
  interface Context {
    /**
     * Translates a message id in the request's language; `{{name}}` placeholders take `vars`.
     * A missing id comes back as the id itself (and is logged once). Without `i18n()` in the
     * app, every id comes back as itself.
     *
     * @param key - the message id (`widget.created.success`)
     * @param vars - values for the message's `{{name}}` placeholders (not HTML-escaped here;
     *   JSX escapes what it renders)
     * @returns the translated message
     * @example
     * c.flash("success", c.t("widget.created.success"));
     */
    t(key: string, vars?: Record<string, unknown>): string;
  }
}

/** Options of {@link i18n}. */
export interface I18nOptions {
  /** Directory of JSON locale files (`en-US.json`, `widgets.en-US.json`). */
  directory?: string;
  /** Messages given directly, by language (merged over the directory's). */
  messages?: Record<string, Messages | Record<string, unknown>>;
  /** Language used when nothing else matches; default `en-US`. */
  defaultLanguage?: string;
  /** Where missing ids are reported (once each); default the request logger or stdout JSON. */
  logger?: Logger;
}

/** One language of one `i18n()`: what a request in that language translates with. */
interface Translations {
  readonly language: string;
  t(key: string, vars?: Record<string, unknown>): string;
}

/** Where a request's {@link Translations} are kept (a private key among the context's variables). */
const TRANSLATIONS = TRANSLATIONS_KEY as unknown as "language";

function t(this: Context, key: string, vars?: Record<string, unknown>): string {
  const translations = this.get(TRANSLATIONS) as unknown as Translations | undefined;
  return translations ? translations.t(key, vars) : key;
}

/** `c.t`, brought by {@link i18n} (installed by the App, see kernel/context-extensions.ts). */
export const tExtension = contextExtension("t", t);

/** The page's `lang` and `t` for layouts, read only when a page renders them. */
const I18N_HOOKS: PageHooks = {
  lang: (c) => c.get("language"),
  t: (c, key, vars) => c.t(key, vars),
};

/** Accept-Language headers repeat (one per browser setting), so their parses are remembered. */
const MAX_REMEMBERED = 200;

/**
 * Messages translated without variables, remembered per language (layouts and forms ask for the
 * same labels on every page; i18next's `t` costs several microseconds each, a tenth of an HTML
 * page under load). Bounded: a key taken from a request could otherwise grow it without end.
 */
const MAX_REMEMBERED_MESSAGES = 2000;

/**
 * Translations with i18next. The language of a request is the first of: cookie `lang`, session
 * `lang`, `Accept-Language` (by q-value), the default `en-US`, that the app has messages for.
 * Sets `c.get("language")`, `c.t(key, vars)` and the page's `lang`/`t` for layouts. The i18next
 * instance is made on the first translation, so requests that translate nothing (JSON APIs,
 * static files) never pay for it; with messages in one language only, nothing is parsed.
 *
 * @param options - the locale files' `directory`, `messages` given directly, the
 *   `defaultLanguage` (`en-US`) and the `logger` of missing ids
 * @returns the middleware; it brings `c.t()`
 * @throws WisentError `E_APP_MISCONFIGURED` when the directory cannot be read or a locale file
 *   is not valid JSON (read when `i18n()` is called, at start-up)
 * @example
 * app.use(i18n({ directory: new URL("./locales", import.meta.url).pathname }));
 * app.get("/", (c) => c.text(c.t("welcome", { name: "Ada" })));
 */
export function i18n(options: I18nOptions = {}): MiddlewareHandler {
  const defaultLanguage = options.defaultLanguage ?? "en-US";
  const languages: Record<string, Messages> = options.directory
    ? loadLocaleDirectory(options.directory)
    : {};
  for (const [language, messages] of Object.entries(options.messages ?? {})) {
    languages[language] = { ...languages[language], ...flattenMessages(messages) };
  }
  const supported = Object.keys(languages);
  if (!supported.includes(defaultLanguage)) supported.push(defaultLanguage);

  const reported = new Set<string>();
  let currentLogger: Logger | undefined;
  let instance: I18nInstance | undefined;
  const makeInstance = (): I18nInstance => {
    const made = i18next.createInstance();
    made.init({
      initAsync: false,
      resources: Object.fromEntries(
        supported.map((language) => [language, { translation: languages[language] ?? {} }]),
      ),
      lng: defaultLanguage,
      fallbackLng: defaultLanguage,
      supportedLngs: false,
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      saveMissing: true,
      missingKeyHandler: (lngs, _ns, key) => {
        const id = `${lngs.join(",")}:${key}`;
        if (reported.has(id)) return;
        reported.add(id);
        (options.logger ?? currentLogger ?? sharedLogger()).warn({
          msg: `missing translation: ${key}`,
          key,
          languages: lngs,
        });
      },
    });
    return made;
  };
  const translationsFor = (language: string): Translations => {
    let fixed: TFunction | undefined;
    const translate = (key: string, vars?: Record<string, unknown>): string => {
      if (!fixed) {
        instance ??= makeInstance();
        fixed = instance.getFixedT(language);
      }
      return fixed(key, vars ?? {}) as string;
    };
    // The messages never change after start-up (the instance is this middleware's own), so a
    // translation without variables is the same every time.
    const plain = new BoundedMemo<string, string>(MAX_REMEMBERED_MESSAGES);
    return {
      language,
      t: (key, vars) => (vars === undefined ? plain.get(key, translate) : translate(key, vars)),
    };
  };
  const byLanguage = new Map(supported.map((language) => [language, translationsFor(language)]));
  const only = supported.length === 1 ? byLanguage.get(defaultLanguage) : undefined;

  const fromAcceptLanguage = new BoundedMemo<string, string[]>(MAX_REMEMBERED);
  const preferred = (header: string | undefined): string[] =>
    header ? fromAcceptLanguage.get(header, parseAcceptLanguage) : [];
  const languageOf = (c: Context): string => {
    const candidates: string[] = [];
    const cookie = requestCookie(c, "lang");
    if (cookie) candidates.push(cookie);
    const fromSession = c.get("session")?.get<string>("lang");
    if (typeof fromSession === "string" && fromSession) candidates.push(fromSession);
    candidates.push(...preferred(requestHeader(c, "accept-language")));
    return matchLanguage(candidates, supported) ?? defaultLanguage;
  };

  const middleware = phased({
    before: (c) => {
      // One language: every request is in it, whatever the cookie, session or header say.
      const translations = only ?? byLanguage.get(languageOf(c))!;
      currentLogger = c.get("logger");
      c.set(TRANSLATIONS, translations as never);
      c.set("language", translations.language);
      addPageHooks(c, I18N_HOOKS);
    },
  });
  return bringsContextMethods(middleware, [tExtension]);
}
