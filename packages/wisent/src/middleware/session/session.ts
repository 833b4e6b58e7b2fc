import type { Context, MiddlewareHandler } from "hono";
import { setCookie } from "hono/cookie";
import { phased } from "../../app/compose.js";
import { currentEnv } from "../../app/environment.js";
import { sharedLogger } from "../../http/logger.js";
import { requestCookie } from "../../http/request-cookie.js";
import { underscore } from "../../naming/index.js";
import {
  openedSessionJson,
  type SessionData,
  sealSession,
  unsealSession,
} from "./session-codec.js";
import { resolveSessionPasswords, type SessionPassword } from "./session-secrets.js";

/** Makes a session from an opened cookie's JSON (set by the class's static block). */
let fromJson: (json: string) => Session;

/** 30 days, as Buffalo. */
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;
/** Browsers drop cookies above 4096 bytes (name, value and attributes together). */
const MAX_COOKIE_BYTES = 4096;

/**
 * The session of one request: a small JSON object kept in a sealed cookie. Changes are written
 * back (one Set-Cookie) only when something changed.
 */
export class Session {
  #data: SessionData | undefined;
  /** The opened cookie's JSON, parsed on first use (a request that reads nothing parses nothing). */
  #json: string | undefined;
  #changed = false;

  constructor(data: SessionData = {}) {
    this.#data = data;
  }

  static {
    fromJson = (json) => {
      const session = new Session();
      session.#data = undefined;
      session.#json = json;
      return session;
    };
  }

  get #values(): SessionData {
    if (this.#data === undefined) {
      this.#data = JSON.parse(this.#json!) as SessionData;
      this.#json = undefined;
    }
    return this.#data;
  }

  /** The value stored under `key`. */
  get<T = unknown>(key: string): T | undefined {
    return this.#values[key] as T | undefined;
  }

  /** Stores a JSON-serialisable value. */
  set(key: string, value: unknown): void {
    if (value === undefined) {
      this.delete(key);
      return;
    }
    this.#values[key] = value;
    this.#changed = true;
  }

  /** Removes a key. */
  delete(key: string): void {
    const values = this.#values;
    if (!(key in values)) return;
    delete values[key];
    this.#changed = true;
  }

  /** Empties the session (e.g. on sign-out). */
  clear(): void {
    if (Object.keys(this.#values).length === 0) return;
    this.#data = {};
    this.#changed = true;
  }

  /** True when this request changed the session. */
  get changed(): boolean {
    return this.#changed;
  }

  toJSON(): SessionData {
    return { ...this.#values };
  }
}

declare module "hono" {
  interface ContextVariableMap {
    /** The request's session, set by `session()`. */
    session: Session;
  }
}

/** Options of {@link session}. */
export interface SessionOptions {
  /** Cookie name; default `_<app>_session` from the App's name (e.g. `_shop_session`). */
  cookieName?: string;
  /**
   * Secret(s) sealing the cookie, at least 32 characters each; default `SESSION_SECRET`
   * (comma-separated: the first seals, all unseal, which is how secrets are rotated).
   */
  secret?: string | readonly string[];
  /** Retired secrets still accepted when reading cookies. */
  oldSecrets?: readonly string[];
  /** Cookie lifetime in seconds; default 30 days. */
  maxAge?: number;
  /** `Secure` attribute; default true in production. */
  secure?: boolean;
  /** Environment; default `GO_ENV`, else `NODE_ENV`, else development. */
  env?: string;
  /** App name for the cookie and the development secret when there is no App context. */
  appName?: string;
}

let warnedAboutFallback = false;

/**
 * Sessions in a sealed (encrypted and authenticated) cookie, HttpOnly, SameSite=Lax, Path=/,
 * Secure in production. Without `SESSION_SECRET`, development and test use a per-app fallback
 * secret (one warning); production throws here, at start-up. A cookie that fails to open
 * (tampered, expired, old secret) is a fresh, empty session.
 *
 * @example
 * app.use(session());
 * app.get("/count", (c) => {
 *   const n = (c.get("session").get<number>("n") ?? 0) + 1;
 *   c.get("session").set("n", n);
 *   return c.text(String(n));
 * });
 */
export function session(options: SessionOptions = {}): MiddlewareHandler {
  const env = options.env ?? currentEnv();
  const maxAge = options.maxAge ?? DEFAULT_MAX_AGE;
  const secure = options.secure ?? env === "production";
  const passwordsByApp = new Map<string, SessionPassword[]>();
  const resolve = (appName: string, quiet = false) =>
    resolveSessionPasswords({
      secret: options.secret,
      oldSecrets: options.oldSecrets,
      env,
      appName,
      warn: (message) => {
        if (quiet || warnedAboutFallback) return;
        warnedAboutFallback = true;
        sharedLogger().warn({ msg: message });
      },
    });
  // Fails now, at start-up, when production has no secret (or a secret is too short). Without
  // an appName the fallback secret (and its warning) waits for the App's name on first request.
  const atStartup = resolve(options.appName ?? "wisent", options.appName === undefined);
  if (options.appName !== undefined) passwordsByApp.set(options.appName, atStartup);

  const passwordsFor = (appName: string | undefined): SessionPassword[] => {
    const key = options.appName ?? appName ?? "";
    let passwords = passwordsByApp.get(key);
    if (!passwords) {
      passwords = resolve(key || "wisent");
      passwordsByApp.set(key, passwords);
    }
    return passwords;
  };

  const cookieNameFor = (appName: string | undefined): string =>
    options.cookieName ?? sessionCookieName(options.appName ?? appName ?? "wisent");

  return phased({
    before: (c) => {
      const appName = c.get("wisent")?.name;
      // Resolved on every request (a Map lookup): the fallback secret's warning comes with the first.
      const passwords = passwordsFor(appName);
      const sealed = requestCookie(c, cookieNameFor(appName));
      if (!sealed) return start(c, new Session());
      const json = openedSessionJson(sealed, passwords);
      if (json !== undefined) return start(c, fromJson(json));
      return unsealSession(sealed, passwords).then((data) => start(c, new Session(data ?? {})));
    },
    after: (c) => {
      const current = c.get(OPENED);
      if (!current?.changed) return undefined;
      const appName = c.get("wisent")?.name;
      return writeSession(c, cookieNameFor(appName), current, passwordsFor(appName), {
        maxAge,
        secure,
      });
    },
  });
}

/**
 * The session this middleware opened, under a private key: the one written back, even if a
 * handler sets another `session` variable.
 */
const OPENED = Symbol("wisent.openedSession") as unknown as "session";

function start(c: Context, current: Session): undefined {
  c.set("session", current);
  c.set(OPENED, current);
  return undefined;
}

async function writeSession(
  c: Context,
  name: string,
  current: Session,
  passwords: SessionPassword[],
  { maxAge, secure }: { maxAge: number; secure: boolean },
): Promise<void> {
  const value = await sealSession(current.toJSON(), passwords, maxAge);
  if (value.length + name.length > MAX_COOKIE_BYTES - 100) {
    throw new Error(
      `session cookie ${name} would be ${value.length} bytes, over the browser limit of ${MAX_COOKIE_BYTES}: keep the session small (store ids, not records)`,
    );
  }
  setCookie(c, name, value, { path: "/", httpOnly: true, sameSite: "Lax", secure, maxAge });
}

/** `_<app>_session` with the app name in snake case (`MyShop` -> `_my_shop_session`). */
export function sessionCookieName(appName: string): string {
  let name = cookieNames.get(appName);
  if (name === undefined) {
    name = `_${underscore(appName)}_session`;
    cookieNames.set(appName, name);
  }
  return name;
}

const cookieNames = new Map<string, string>();
