import { WisentError } from "../base/wisent-error.js";
import type { FlashByKind } from "../http/page.js";
import { CSRF_FIELD, CSRF_HEADER } from "../middleware/csrf/csrf.js";
import { maskCsrfToken, newCsrfSecret } from "../middleware/csrf/csrf-token.js";
import { FLASH_SESSION_KEY } from "../middleware/flash/flash.js";
import { sessionCookieName } from "../middleware/session/session.js";
import {
  type SessionData,
  sealSession,
  unsealSession,
} from "../middleware/session/session-codec.js";
import {
  resolveSessionPasswords,
  type SessionPassword,
} from "../middleware/session/session-secrets.js";
import { CookieJar } from "./cookie-jar.js";

/** Anything that answers Fetch API requests in-process: a Wisent `App`, a Hono app. */
export interface FetchApp {
  /**
   * Answers a request in-process.
   * @param request - the request
   * @returns the response
   */
  fetch(request: Request): Response | Promise<Response>;
  /** The app's name (a Wisent `App` has it); names the session cookie. */
  readonly name?: string;
}

/** Options of {@link testClient}. */
export interface TestClientOptions {
  /** Base URL of requests; default `http://localhost`. */
  baseUrl?: string;
  /** App name when `app.name` is missing; the session cookie is `_<name>_session`. */
  appName?: string;
  /** Session cookie name when the app set its own. */
  sessionCookie?: string;
  /** The session secret(s) the app uses; default as `session()`: `SESSION_SECRET` or the dev fallback. */
  sessionSecret?: string | readonly string[];
  /** Headers sent with every request (e.g. `{ accept: "application/json" }`). */
  headers?: Record<string, string>;
}

/** A form value: text, numbers, booleans, lists (sent as repeated keys) or files. */
export type FormValue =
  | string
  | number
  | boolean
  | Blob
  | readonly (string | number | boolean)[]
  | readonly Blob[];

/** Options of one request. */
export interface TestRequestOptions {
  /** Form fields: urlencoded, or multipart when a value is a Blob/File. */
  form?: Record<string, FormValue>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body (set `content-type` in `headers`). */
  body?: BodyInit;
  /** Query parameters appended to the path. */
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  /**
   * Add the CSRF token to unsafe requests (default true): to forms, to body-less requests, and
   * as `X-CSRF-Token` to other bodies once the client holds a session cookie.
   */
  csrf?: boolean;
  /** Follow redirects (up to 10) and answer the final response (default false). */
  followRedirects?: boolean;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

function encodeForm(form: Record<string, FormValue>): URLSearchParams | FormData {
  const isFile = (value: unknown): value is Blob => value instanceof Blob;
  const hasFile = Object.values(form).some(
    (value) => isFile(value) || (Array.isArray(value) && value.some(isFile)),
  );
  const target = hasFile ? new FormData() : new URLSearchParams();
  const append = (key: string, value: unknown) => {
    // Files (several under one name for a field of several) only go in a multipart body.
    if (isFile(value)) (target as FormData).append(key, value);
    else target.append(key, String(value));
  };
  for (const [key, value] of Object.entries(form)) {
    if (Array.isArray(value)) for (const item of value) append(key, item);
    else append(key, value);
  }
  return target;
}

/**
 * An in-process client for an app's own tests: keeps cookies between requests (so the session
 * and flash carry over), adds the CSRF token to form posts by itself, reads flash messages and
 * follows redirects. No socket is opened.
 *
 * @example
 * const client = testClient(app);
 * const res = await client.post("/widgets", { form: { title: "Hammer" } });
 * expect(res.status).toBe(303);
 * expect(await client.flash()).toEqual({ success: ["Widget was successfully created."] });
 * const page = await client.follow(res);
 * expect(await page.text()).toContain("Hammer");
 *
 * @param app - a Wisent `App` (or anything with `fetch`)
 * @param options - the base URL, default headers and the session's cookie name and secret
 * @returns a new client with an empty cookie jar
 */
export function testClient(app: FetchApp, options: TestClientOptions = {}): TestClient {
  return new TestClient(app, options);
}

/** See {@link testClient}. */
export class TestClient {
  /** The cookies this client sends. */
  readonly cookies = new CookieJar();
  /**
   * Headers sent with every request (starting as the `headers` option): `signIn` adds an API
   * token's `authorization` here, `signOut` removes it.
   */
  readonly headers: Record<string, string>;
  readonly #app: FetchApp;
  readonly #options: TestClientOptions;
  #passwords: SessionPassword[] | undefined;

  /**
   * @param app - a Wisent `App` (or anything with `fetch`)
   * @param options - the base URL, default headers and the session's cookie name and secret
   */
  constructor(app: FetchApp, options: TestClientOptions = {}) {
    this.#app = app;
    this.#options = options;
    this.headers = { ...options.headers };
  }

  /**
   * Sends a GET request (see {@link TestClient.request}).
   * @param path - the path (and query), relative to the base URL
   * @param options - body, query, headers, CSRF and redirects
   * @returns the app's response
   */
  get(path: string, options?: TestRequestOptions): Promise<Response> {
    return this.request("GET", path, options);
  }
  /**
   * Sends a HEAD request (see {@link TestClient.request}).
   * @param path - the path (and query), relative to the base URL
   * @param options - body, query, headers, CSRF and redirects
   * @returns the app's response
   */
  head(path: string, options?: TestRequestOptions): Promise<Response> {
    return this.request("HEAD", path, options);
  }
  /**
   * Sends a POST request (see {@link TestClient.request}).
   * @param path - the path (and query), relative to the base URL
   * @param options - body, query, headers, CSRF and redirects
   * @returns the app's response
   */
  post(path: string, options?: TestRequestOptions): Promise<Response> {
    return this.request("POST", path, options);
  }
  /**
   * Sends a PUT request (see {@link TestClient.request}).
   * @param path - the path (and query), relative to the base URL
   * @param options - body, query, headers, CSRF and redirects
   * @returns the app's response
   */
  put(path: string, options?: TestRequestOptions): Promise<Response> {
    return this.request("PUT", path, options);
  }
  /**
   * Sends a PATCH request (see {@link TestClient.request}).
   * @param path - the path (and query), relative to the base URL
   * @param options - body, query, headers, CSRF and redirects
   * @returns the app's response
   */
  patch(path: string, options?: TestRequestOptions): Promise<Response> {
    return this.request("PATCH", path, options);
  }
  /**
   * Sends a DELETE request (see {@link TestClient.request}).
   * @param path - the path (and query), relative to the base URL
   * @param options - body, query, headers, CSRF and redirects
   * @returns the app's response
   */
  delete(path: string, options?: TestRequestOptions): Promise<Response> {
    return this.request("DELETE", path, options);
  }

  /**
   * Sends one request through the app, storing the cookies it sets. An unsafe request gets the
   * session's CSRF token (in a form's `authenticity_token`, else the `X-CSRF-Token` header)
   * unless `csrf: false`.
   * @param method - the HTTP method, any case
   * @param path - the path (and query), relative to the base URL
   * @param options - `form`, `json` or `body`; `query`, `headers`, `csrf` and `followRedirects`
   * @returns the app's response (the last one, when following redirects)
   * @throws Error when a CSRF token is needed and the client cannot read the session: no app
   *   name (pass `appName`), or no session secret outside development and test
   * @throws Error when following more than 10 redirects, or a 307/308
   * @example const res = await client.request("PATCH", "/widgets/1", { json: { title: "Gear" } });
   */
  async request(method: string, path: string, options: TestRequestOptions = {}): Promise<Response> {
    const upper = method.toUpperCase();
    const url = new URL(path, this.#options.baseUrl ?? "http://localhost");
    for (const [key, value] of Object.entries(options.query ?? {}))
      url.searchParams.append(key, String(value));
    const headers = new Headers({ ...this.headers, ...options.headers });
    let body: BodyInit | undefined = options.body;
    const wantsCsrf = options.csrf !== false && !SAFE.has(upper);
    if (options.form) {
      const form = { ...options.form };
      if (wantsCsrf && form[CSRF_FIELD] === undefined) form[CSRF_FIELD] = await this.csrfToken();
      body = encodeForm(form);
    } else {
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      // As the generated application.js does for fetch: the token header on a body-less request,
      // and on any other body once the client holds a session cookie (csrf() asks for it then).
      const holdsSession = this.cookies.get(this.sessionCookieName) !== undefined;
      if (wantsCsrf && !headers.has(CSRF_HEADER) && (body === undefined || holdsSession)) {
        headers.set(CSRF_HEADER, await this.csrfToken());
      }
    }
    const response = await this.#send(new Request(url, { method: upper, headers, body }));
    return options.followRedirects ? this.#followAll(response, url) : response;
  }

  /**
   * Answers a Fetch API `Request` as this client: with its cookies (stored again from the answer),
   * its default headers (a signed-in API client's token) and, on an unsafe request, the CSRF
   * token header as {@link TestClient.request} adds it. Hand it to the typed client to make its
   * requests as a signed-in user.
   *
   * @example
   * const client = testClient(app);
   * await signIn(client, ada);
   * const api = createClient<typeof import("../app.js")>({ fetch: (request) => client.fetch(request) });
   *
   * @param request - the request to send
   * @returns the app's response
   * @throws Error when a CSRF token is needed and the client cannot read the session: no app
   *   name (pass `appName`), or no session secret outside development and test
   */
  async fetch(request: Request): Promise<Response> {
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(this.headers)) {
      if (!headers.has(name)) headers.set(name, value);
    }
    const holdsSession = this.cookies.get(this.sessionCookieName) !== undefined;
    // A form body (the typed client sends files as multipart) is a form post to CSRF, with or
    // without a session, as `request`'s `form` is.
    const isForm = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(
      headers.get("content-type") ?? "",
    );
    if (
      !SAFE.has(request.method.toUpperCase()) &&
      !headers.has(CSRF_HEADER) &&
      (request.body === null || holdsSession || isForm)
    ) {
      headers.set(CSRF_HEADER, await this.csrfToken());
    }
    const body = request.body === null ? undefined : await request.arrayBuffer();
    return this.#send(new Request(request.url, { method: request.method, headers, body }));
  }

  /**
   * Follows one redirect: 301/302/303 become a GET, 307/308 are refused (re-send the body yourself).
   * @param response - the redirect
   * @param from - the URL the redirect answered, for a relative `Location`
   * @returns the response to the GET of its `Location`
   * @throws Error when `response` is no redirect with a `Location`, or is a 307/308
   * @example const page = await client.follow(await client.post("/widgets", { form }));
   */
  async follow(
    response: Response,
    from: string | URL = this.#options.baseUrl ?? "http://localhost",
  ): Promise<Response> {
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new WisentError(
        "E_TEST_SETUP",
        `follow(): response ${response.status} is not a redirect with a Location header`,
      );
    }
    if (response.status === 307 || response.status === 308) {
      throw new WisentError(
        "E_TEST_SETUP",
        `follow(): ${response.status} keeps the method and body; send the request again to ${location}`,
      );
    }
    return this.get(new URL(location, from).toString());
  }

  async #followAll(response: Response, from: URL): Promise<Response> {
    let current = response;
    let url = from;
    for (
      let hops = 0;
      current.status >= 300 && current.status < 400 && current.headers.get("location");
      hops++
    ) {
      if (hops === 10)
        throw new WisentError(
          "E_TEST_SETUP",
          `followRedirects: more than 10 redirects, last to ${current.headers.get("location")}`,
        );
      url = new URL(current.headers.get("location")!, url);
      current = await this.follow(current, url);
    }
    return current;
  }

  async #send(request: Request): Promise<Response> {
    const cookie = this.cookies.header();
    if (cookie && !request.headers.has("cookie")) request.headers.set("cookie", cookie);
    const response = await this.#app.fetch(request);
    this.cookies.store(response);
    return response;
  }

  /** The session cookie's name. */
  get sessionCookieName(): string {
    return this.#options.sessionCookie ?? sessionCookieName(this.#appName());
  }

  #appName(): string {
    const name = this.#options.appName ?? this.#app.name;
    if (!name)
      throw new WisentError(
        "E_TEST_SETUP",
        "testClient: pass { appName } (or an App, which has a name) to read its session",
      );
    return name;
  }

  #sessionPasswords(): SessionPassword[] {
    this.#passwords ??= resolveSessionPasswords({ secret: this.#options.sessionSecret });
    return this.#passwords;
  }

  /**
   * The session as the app will see it on the next request (empty when there is none).
   * @returns the session's values, unsealed with the app's secret
   * @throws Error without an app name (pass `appName`), or without a session secret outside
   *   development and test (`E_CONFIG_INVALID`)
   */
  async session(): Promise<SessionData> {
    const sealed = this.cookies.get(this.sessionCookieName);
    if (!sealed) return {};
    return (await unsealSession(sealed, this.#sessionPasswords())) ?? {};
  }

  /**
   * Flash messages waiting for the next rendered page, e.g. `{ success: ["Saved."] }`.
   * @returns the pending messages by kind (`{}` when none)
   * @throws Error as {@link TestClient.session} does
   */
  async flash(): Promise<FlashByKind> {
    return ((await this.session())[FLASH_SESSION_KEY] as FlashByKind | undefined) ?? {};
  }

  /**
   * A valid CSRF token for this client's session, made without a page: the session's secret is
   * read (or created and stored in the cookie jar) and masked as the app would.
   * @returns a masked token
   * @throws Error as {@link TestClient.session} does
   */
  async csrfToken(): Promise<string> {
    const data = await this.session();
    let secret = data[CSRF_FIELD];
    if (typeof secret !== "string") {
      secret = newCsrfSecret();
      const sealed = await sealSession(
        { ...data, [CSRF_FIELD]: secret },
        this.#sessionPasswords(),
        30 * 24 * 3600,
      );
      this.cookies.set(this.sessionCookieName, sealed);
    }
    return maskCsrfToken(secret as string);
  }
}
