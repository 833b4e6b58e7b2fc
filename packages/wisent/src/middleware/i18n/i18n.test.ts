import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import i18next from "i18next";
import { describe, expect, it, vi } from "vitest";
import { installAllContextMethods } from "../../app/test-support/context-methods.js";
import type { Logger } from "../../http/logger.js";
import { session } from "../session/session.js";
import { i18n } from "./i18n.js";
import { matchLanguage, parseAcceptLanguage } from "./language.js";
import { loadLocaleDirectory } from "./locale-files.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

function localeDir() {
  const dir = mkdtempSync(join(tmpdir(), "wisent-locales-"));
  writeFileSync(join(dir, "en-US.json"), JSON.stringify({ welcome: "Welcome, {{name}}!" }));
  writeFileSync(
    join(dir, "widgets.en-US.json"),
    JSON.stringify({ "widget.created.success": "Widget was successfully created." }),
  );
  writeFileSync(
    join(dir, "widgets.de.json"),
    JSON.stringify({ widget: { created: { success: "Widget wurde angelegt." } } }),
  );
  writeFileSync(join(dir, "fr-FR.json"), JSON.stringify({ welcome: "Bienvenue, {{name}} !" }));
  writeFileSync(join(dir, "README.md"), "not a locale");
  return dir;
}

function spyLogger() {
  const warnings: string[] = [];
  const logger: Logger = { info() {}, error() {}, warn: (entry) => warnings.push(entry.msg) };
  return { warnings, logger };
}

function app(logger?: Logger) {
  const hono = new Hono();
  hono.use(session({ secret: "i".repeat(32), appName: "shop" }));
  hono.use(i18n({ directory: localeDir(), logger }));
  hono.get("/", (c) =>
    c.text(
      `${c.get("language")}|${c.t("widget.created.success")}|${c.t("welcome", { name: "Ada" })}`,
    ),
  );
  hono.get("/missing", (c) => c.text(c.t("nope.missing")));
  hono.get("/set-lang", (c) => {
    c.get("session").set("lang", "fr-FR");
    return c.text("ok");
  });
  return hono;
}

describe("parseAcceptLanguage and matchLanguage", () => {
  it("orders by q, drops q=0 and *", () => {
    expect(parseAcceptLanguage("de-AT;q=0.5, fr, en;q=0.8, es;q=0, *;q=0.1")).toEqual([
      "fr",
      "en",
      "de-AT",
    ]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it("matches exactly, then by base language", () => {
    expect(matchLanguage(["en"], ["de", "en-US"])).toBe("en-US");
    expect(matchLanguage(["de-AT"], ["de", "en-US"])).toBe("de");
    expect(matchLanguage(["EN-us"], ["en-US"])).toBe("en-US");
    expect(matchLanguage(["ja"], ["en-US"])).toBeUndefined();
  });
});

describe("loadLocaleDirectory", () => {
  it("merges app-wide and per-resource files per language, flat or nested", () => {
    const languages = loadLocaleDirectory(localeDir());
    expect(Object.keys(languages).sort()).toEqual(["de", "en-US", "fr-FR"]);
    expect(languages["en-US"]).toEqual({
      welcome: "Welcome, {{name}}!",
      "widget.created.success": "Widget was successfully created.",
    });
    expect(languages.de).toEqual({ "widget.created.success": "Widget wurde angelegt." });
  });

  it("names a missing directory and a broken file", () => {
    expect(() => loadLocaleDirectory("/nonexistent/locales")).toThrow(
      /cannot read the locales directory \/nonexistent\/locales/,
    );
    const dir = mkdtempSync(join(tmpdir(), "wisent-bad-"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "en-US.json"), "{ nope");
    expect(() => loadLocaleDirectory(dir)).toThrow(/en-US\.json is not valid JSON/);
  });
});

describe("i18n middleware", () => {
  it("defaults to en-US with interpolation", async () => {
    expect(await (await app().request("/")).text()).toBe(
      "en-US|Widget was successfully created.|Welcome, Ada!",
    );
  });

  it("follows Accept-Language q-values, falling back to en-US per key", async () => {
    const res = await app().request("/", {
      headers: { "accept-language": "ja, de-DE;q=0.9, en;q=0.5" },
    });
    expect(await res.text()).toBe("de|Widget wurde angelegt.|Welcome, Ada!");
  });

  it("prefers the lang cookie, then the session's lang, over Accept-Language", async () => {
    const hono = app();
    const byCookie = await hono.request("/", {
      headers: { cookie: "lang=fr-FR", "accept-language": "de" },
    });
    expect((await byCookie.text()).split("|")[0]).toBe("fr-FR");
    const sessionCookie = (await hono.request("/set-lang")).headers
      .get("set-cookie")!
      .split(";")[0]!;
    const bySession = await hono.request("/", {
      headers: { cookie: sessionCookie, "accept-language": "de" },
    });
    expect(await bySession.text()).toBe("fr-FR|Widget was successfully created.|Bienvenue, Ada !");
  });

  it("makes its i18next instance only when something is translated", async () => {
    const made = vi.spyOn(i18next, "createInstance");
    try {
      const hono = app();
      hono.get("/json", (c) => c.json({ language: c.get("language") }));
      const res = await hono.request("/json", { headers: { "accept-language": "de" } });
      expect(await res.json()).toEqual({ language: "de" });
      expect(made).not.toHaveBeenCalled();
      await hono.request("/");
      await hono.request("/", { headers: { "accept-language": "de" } });
      expect(made).toHaveBeenCalledTimes(1);
    } finally {
      made.mockRestore();
    }
  });

  it("translates a message without variables once per language, then remembers it", async () => {
    const createInstance = i18next.createInstance.bind(i18next);
    const calls: string[] = [];
    const made = vi.spyOn(i18next, "createInstance").mockImplementation((...args) => {
      const instance = createInstance(...args);
      const getFixedT = instance.getFixedT.bind(instance);
      instance.getFixedT = ((...args: Parameters<typeof getFixedT>) => {
        const fixed = getFixedT(...args);
        return ((key: string, vars: unknown) => {
          calls.push(`${args[0]}:${key}`);
          return fixed(key, vars as never);
        }) as never;
      }) as typeof instance.getFixedT;
      return instance;
    });
    try {
      const hono = app();
      const texts: string[] = [];
      for (const language of ["en-US", "de", "en-US", "de"]) {
        const res = await hono.request("/", { headers: { "accept-language": language } });
        texts.push(await res.text());
      }
      expect(texts).toEqual([
        "en-US|Widget was successfully created.|Welcome, Ada!",
        "de|Widget wurde angelegt.|Welcome, Ada!",
        "en-US|Widget was successfully created.|Welcome, Ada!",
        "de|Widget wurde angelegt.|Welcome, Ada!",
      ]);
      // Each language's plain message once; a message with variables every time.
      expect(calls.filter((call) => call.endsWith("widget.created.success"))).toEqual([
        "en-US:widget.created.success",
        "de:widget.created.success",
      ]);
      expect(calls.filter((call) => call.endsWith(":welcome"))).toHaveLength(4);
    } finally {
      made.mockRestore();
    }
  });

  it("puts every request in the only language there is", async () => {
    const hono = new Hono();
    hono.use(session({ secret: "i".repeat(32), appName: "shop" }));
    hono.use(i18n({ messages: { "en-US": { hi: "Hello" } } }));
    hono.get("/", (c) => c.text(`${c.get("language")}|${c.t("hi")}`));
    const res = await hono.request("/", {
      headers: { cookie: "lang=fr-FR", "accept-language": "de" },
    });
    expect(await res.text()).toBe("en-US|Hello");
  });

  it("returns a missing key as itself and logs it once", async () => {
    const { warnings, logger } = spyLogger();
    const hono = app(logger);
    expect(await (await hono.request("/missing")).text()).toBe("nope.missing");
    await hono.request("/missing");
    expect(warnings).toEqual(["missing translation: nope.missing"]);
  });
});
