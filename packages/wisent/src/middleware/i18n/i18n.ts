import { Context, type MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import i18next, { type TFunction } from "i18next";
import "../../http/context-vars.js";
import { type Logger, sharedLogger } from "../../http/logger.js";
import { addPageHooks, type PageHooks } from "../../http/page.js";
import "../session/session.js";
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
     * A missing id comes back as the id itself (and is logged once).
     *
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

const translators = new WeakMap<Context, TFunction>();

function t(this: Context, key: string, vars?: Record<string, unknown>): string {
  const translate = translators.get(this);
  if (!translate) return key;
  return translate(key, vars ?? {}) as string;
}

Object.defineProperty(Context.prototype, "t", { value: t, configurable: true, writable: true });

/**
 * Translations with i18next. The language of a request is the first of: cookie `lang`, session
 * `lang`, `Accept-Language` (by q-value), the default `en-US`, that the app has messages for.
 * Sets `c.get("language")`, `c.t(key, vars)` and the page's `lang`/`t` for layouts.
 *
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
  const instance = i18next.createInstance();
  instance.init({
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
  const fixed = new Map(supported.map((language) => [language, instance.getFixedT(language)]));

  return async (c, next) => {
    const candidates: string[] = [];
    const cookie = c.req.raw.headers.has("cookie") ? getCookie(c, "lang") : undefined;
    if (cookie) candidates.push(cookie);
    const fromSession = c.get("session")?.get<string>("lang");
    if (typeof fromSession === "string" && fromSession) candidates.push(fromSession);
    candidates.push(...parseAcceptLanguage(c.req.header("accept-language")));
    const language = matchLanguage(candidates, supported) ?? defaultLanguage;
    const translate = fixed.get(language)!;
    currentLogger = c.get("logger");
    translators.set(c, translate);
    c.set("language", language);
    addPageHooks(c, { lang: language, t: translate as NonNullable<PageHooks["t"]> });
    await next();
  };
}
