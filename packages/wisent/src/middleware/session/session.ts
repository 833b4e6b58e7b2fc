import { randomBytes } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { setCookie } from "hono/cookie";
import { currentEnv, isProductionLike } from "../../config/settings.js";
import { preferNoStore } from "../../http/cache-control.js";
import { sharedLogger } from "../../http/logger.js";
import { requestCookie } from "../../http/request-cookie.js";
import { phased } from "../../kernel/compose.js";
import { provides } from "../../kernel/middleware-needs.js";
import { sessionCookieName } from "../../naming/session-cookie-name.js";

export { sessionCookieName };

import {
  CAME_WITH_SESSION_COOKIE_KEY,
  OPENED_SESSION_KEY,
  SESSION_WRITER_KEY,
} from "../../base/symbols.js";
import { WisentError } from "../../base/wisent-error.js";
import {
  openedSessionJson,
  type SessionData,
  sealSessionNow,
  unsealSessionNow,
} from "./session-codec.js";
import { resolveSessionPasswords, type SessionPassword } from "./session-secrets.js";

/** Makes a session from an opened cookie's JSON (set by the class's static block). */
let fromJson: (json: string) => Session;

/** Browsers drop cookies above 4096 bytes (name, value and attributes together). */
export const MAX_COOKIE_BYTES = 4096;
/** Session key holding the flash messages not yet shown (the flash middleware's). */
export const FLASH_SESSION_KEY = "_flash";
/** Session key of the session's random id (made on first use of `id` and by `renew()`). */
export const SESSION_ID_KEY = "_id";
/** Session key of the per-session CSRF secret (Buffalo's name; the csrf middleware's). */
const CSRF_SECRET_KEY = "authenticity_token";

/**
 * The session of one request: a small JSON object kept in a sealed cookie. Changes are written
 * back (one Set-Cookie) only when something changed.
 */
export class Session {
  #data: SessionData | undefined;
  /** The opened cookie's JSON, parsed on first use (a request that reads nothing parses nothing). */
  #json: string | undefined;
  #changed = false;
  /** Counts changes, so a cookie sealed before the commit is known to be still current. */
  #version = 0;

  /**
   * Made by `session()` for each request; make one yourself only in tests.
   * @param data - the session's values
   */
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

  /**
   * The value stored under `key`.
   * @param key - the session key
   * @returns the value as stored (JSON: dates come back as strings), or undefined
   * @example const userId = c.get("session").get<string>("user_id");
   */
  get<T = unknown>(key: string): T | undefined {
    return this.#values[key] as T | undefined;
  }

  /**
   * Stores a JSON-serialisable value (written back to the cookie when the request ends).
   * @param key - the session key
   * @param value - any JSON value; `undefined` removes the key
   */
  set(key: string, value: unknown): void {
    if (value === undefined) {
      this.delete(key);
      return;
    }
    this.#values[key] = value;
    this.#touch();
  }

  #touch(): void {
    this.#changed = true;
    this.#version++;
  }

  /**
   * Removes a key.
   * @param key - the session key
   */
  delete(key: string): void {
    const values = this.#values;
    if (!(key in values)) return;
    delete values[key];
    this.#touch();
  }

  /** Empties the session. On sign-out prefer {@link renew}, which also changes its id. */
  clear(): void {
    if (Object.keys(this.#values).length === 0) return;
    this.#data = {};
    this.#touch();
  }

  /**
   * This session's random id (made and stored on first use): a key for anything the app keeps
   * about the session elsewhere. {@link renew} changes it.
   */
  get id(): string {
    const id = this.#values[SESSION_ID_KEY];
    if (typeof id === "string") return id;
    const made = randomBytes(16).toString("base64url");
    this.set(SESSION_ID_KEY, made);
    return made;
  }

  /**
   * Starts a new session in place of this one (Rails' `reset_session`): a fresh id and a fresh
   * CSRF secret (tokens of the old session stop working), keeping only the keys named in `keep`
   * and pending flash messages. Call it on every change of privilege, so a session id an
   * attacker planted or saw before is worth nothing afterwards:
   *
   * @example
   * // log-in: the user id goes into a new session
   * c.get("session").renew();
   * c.get("session").set("user_id", user.id);
   * // log-out: nothing of the old session survives but the chosen keys
   * c.get("session").renew(["locale"]);
   *
   * @param keep - the keys to carry into the new session (the CSRF secret and the id never are)
   */
  renew(keep: readonly string[] = []): void {
    const values = this.#values;
    const next: SessionData = {};
    for (const key of [...keep, FLASH_SESSION_KEY]) {
      if (key !== CSRF_SECRET_KEY && key !== SESSION_ID_KEY && key in values)
        next[key] = values[key];
    }
    next[SESSION_ID_KEY] = randomBytes(16).toString("base64url");
    this.#data = next;
    this.#touch();
  }

  /** The change count (see `sessionFitsBeforeCommit`). */
  get version(): number {
    return this.#version;
  }

  /** True when this request changed the session. */
  get changed(): boolean {
    return this.#changed;
  }

  /**
   * The session's values, as sealed into the cookie.
   * @returns a copy of the values
   */
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
  /**
   * Cookie lifetime in seconds; default none: a browser-session cookie, gone when the browser
   * closes (as Rails'). With a lifetime, the sealed value also stops opening after it.
   */
  maxAge?: number;
  /** `Secure` attribute; default true in production (and every production-like environment). */
  secure?: boolean;
  /** Environment; default `GO_ENV`, else `NODE_ENV`, else development. */
  env?: string;
  /** App name for the cookie when there is no App context. */
  appName?: string;
  /** Where development keeps its random secret; default `tmp/local_secret.txt`. */
  developmentSecretFile?: string;
}

/**
 * Sessions in a sealed (encrypted and authenticated) cookie, HttpOnly, SameSite=Lax, Path=/,
 * Secure in production, ending with the browser session unless `maxAge` is given. Without
 * `SESSION_SECRET`, development uses its checkout's random secret (`tmp/local_secret.txt`) and
 * test a random one per run; every other environment throws here, at start-up, saying how to
 * make one. A cookie that fails to open (tampered, expired, old secret) is a fresh, empty
 * session. A session too large for a cookie drops its flash messages (with a log line) rather
 * than fail a request whose transaction committed; see `sessionFitsBeforeCommit`.
 *
 * @param options - the cookie's name, secrets, lifetime and `Secure` flag (see
 *   {@link SessionOptions})
 * @returns the middleware; it sets `c.get("session")`
 * @throws WisentError `E_CONFIG_INVALID` when an environment other than development or test has
 *   no `SESSION_SECRET` (or `secret`), or a secret is shorter than 32 characters
 * @throws WisentError `E_SESSION_TOO_LARGE`, from the middleware, when the session has grown too large for its cookie (4096
 *   bytes) even without its flash messages
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
  const secure = options.secure ?? isProductionLike(env);
  // Fails now, at start-up, when a production-like environment has no secret (or one is short).
  const passwords = resolveSessionPasswords({
    secret: options.secret,
    oldSecrets: options.oldSecrets,
    env,
    developmentSecretFile: options.developmentSecretFile,
  });
  const cookie: CookieSettings = { maxAge: options.maxAge, secure, passwords };

  const cookieNameFor = (appName: string | undefined): string =>
    options.cookieName ?? sessionCookieName(options.appName ?? appName ?? "wisent");

  const middleware = phased({
    before: (c) => {
      const name = cookieNameFor(c.get("wisent")?.name);
      const writer: SessionWriter = { name, cookie, sealed: undefined };
      (c as Writable)[WRITER] = writer;
      const sealed = requestCookie(c, name);
      if (!sealed) return start(c, new Session());
      (c as Writable)[CAME_WITH_COOKIE] = true;
      const json = openedSessionJson(sealed, passwords);
      if (json !== undefined) return start(c, fromJson(json));
      return start(c, new Session(unsealSessionNow(sealed, passwords) ?? {}));
    },
    after: (c) => {
      const current = c.get(OPENED);
      if (!current?.changed) return undefined;
      return writeSession(c, current, (c as Writable)[WRITER]!);
    },
  });
  return provides(middleware, "session()");
}

interface CookieSettings {
  maxAge: number | undefined;
  secure: boolean;
  passwords: SessionPassword[];
}

/** What the after-step needs to write the cookie, and a value sealed before the commit. */
interface SessionWriter {
  name: string;
  cookie: CookieSettings;
  /** Sealed by `sessionFitsBeforeCommit`, for the session at `version`. */
  sealed: { value: string; version: number } | undefined;
}

const WRITER: typeof SESSION_WRITER_KEY = SESSION_WRITER_KEY;
const CAME_WITH_COOKIE: typeof CAME_WITH_SESSION_COOKIE_KEY = CAME_WITH_SESSION_COOKIE_KEY;
type Writable = Context & { [WRITER]?: SessionWriter; [CAME_WITH_COOKIE]?: boolean };

/**
 * True when the request carried a session cookie (valid or not): what makes it a target for
 * cross-site request forgery (see `csrf()`).
 */
export function hasSessionCookie(c: Context): boolean {
  return (c as Writable)[CAME_WITH_COOKIE] === true;
}

/**
 * The session this middleware opened, under a private key: the one written back, even if a
 * handler sets another `session` variable.
 */
const OPENED = OPENED_SESSION_KEY as unknown as "session";

function start(c: Context, current: Session): undefined {
  c.set("session", current);
  c.set(OPENED, current);
  return undefined;
}

/** `; Path=/; Max-Age=...; HttpOnly; Secure; SameSite=Lax`: what the cookie adds to its value. */
function attributesLength({ maxAge, secure }: CookieSettings): number {
  return (
    "; Path=/; HttpOnly; SameSite=Lax".length +
    (secure ? "; Secure".length : 0) +
    (maxAge === undefined
      ? 0
      : `; Max-Age=${maxAge}`.length + "; Expires=Thu, 01 Jan 1970 00:00:00 GMT".length)
  );
}

/** The cookie's size as the browser counts it: name, `=`, value and attributes. */
function cookieBytes(name: string, value: string, cookie: CookieSettings): number {
  return name.length + 1 + value.length + attributesLength(cookie);
}

function seal(current: Session, cookie: CookieSettings): string {
  return sealSessionNow(current.toJSON(), cookie.passwords, cookie.maxAge ?? 0);
}

function tooLarge(name: string, bytes: number): Error {
  return new WisentError(
    "E_SESSION_TOO_LARGE",
    `session cookie ${name} would be ${bytes} bytes (name, value and attributes), over the browser limit of ${MAX_COOKIE_BYTES}: keep the session small (store ids, not records)`,
  );
}

/**
 * Seals `current`; when too large for a cookie, drops its pending flash messages (logging it)
 * and seals again. Undefined when it is too large even then.
 */
function sealToFit(
  c: Context,
  name: string,
  current: Session,
  cookie: CookieSettings,
): { value: string; bytes: number; fits: boolean } {
  let value = seal(current, cookie);
  let bytes = cookieBytes(name, value, cookie);
  if (bytes <= MAX_COOKIE_BYTES) return { value, bytes, fits: true };
  if (current.get(FLASH_SESSION_KEY) !== undefined) {
    current.delete(FLASH_SESSION_KEY);
    (c.get("logger") ?? sharedLogger()).warn({
      msg: `session cookie ${name} would be ${bytes} bytes, over the browser limit of ${MAX_COOKIE_BYTES}: its flash messages were dropped`,
      request_id: c.get("requestId"),
    });
    value = seal(current, cookie);
    bytes = cookieBytes(name, value, cookie);
  }
  return { value, bytes, fits: bytes <= MAX_COOKIE_BYTES };
}

/**
 * Checks, before the request's transaction commits, that the session will fit in its cookie
 * (dropping flash messages if that is what it takes), and throws when it cannot: the
 * transaction then rolls back and the request fails whole. Once the commit is done the answer is
 * the success answer: the session's after-step never fails a committed request. The
 * `transaction()` middleware calls it; undefined when there is nothing to check.
 */
export function sessionFitsBeforeCommit(c: Context): Promise<void> | undefined {
  const writer = (c as Writable)[WRITER];
  const current = c.get(OPENED);
  if (!writer || !current?.changed) return undefined;
  let fitted: ReturnType<typeof sealToFit>;
  try {
    fitted = sealToFit(c, writer.name, current, writer.cookie);
  } catch (error) {
    return Promise.reject(error);
  }
  // A promise only when it fails: the transaction rolls back on its rejection.
  if (!fitted.fits) return Promise.reject(tooLarge(writer.name, fitted.bytes));
  writer.sealed = { value: fitted.value, version: current.version };
  return undefined;
}

function writeSession(c: Context, current: Session, writer: SessionWriter): void {
  const { name, cookie } = writer;
  let value: string;
  if (writer.sealed && writer.sealed.version === current.version) {
    value = writer.sealed.value;
  } else {
    const fitted = sealToFit(c, name, current, cookie);
    if (!fitted.fits) {
      if (!writer.sealed) throw tooLarge(name, fitted.bytes);
      // Committed already: the success answer stands, with the cookie the browser has.
      (c.get("logger") ?? sharedLogger()).error({
        msg: `${tooLarge(name, fitted.bytes).message}; the session was not saved`,
        request_id: c.get("requestId"),
      });
      return;
    }
    value = fitted.value;
  }
  // A response that sets the session cookie is nobody else's: no cache keeps it.
  preferNoStore(c);
  // Through Hono's c.header, which the App points at c.respond's plain answer once it is made
  // (see trackHonoHeaders): no copy of the Response.
  setCookie(c, name, value, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: cookie.secure,
    ...(cookie.maxAge === undefined ? {} : { maxAge: cookie.maxAge }),
  });
}
