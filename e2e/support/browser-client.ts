/**
 * A small HTTP client for a running app that behaves like a browser where it matters here:
 * it keeps cookies (the session), reads the CSRF token from forms and never follows redirects
 * on its own, so each status and Location can be checked.
 *
 * @example
 * const browser = new BrowserClient(url, { "x-forwarded-proto": "https" }); // behind a TLS proxy
 * const token = await browser.csrfToken("/widgets/new");
 * const res = await browser.submit("/widgets", token, [["title", "Hammer"]]);
 */
export class BrowserClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #cookies = new Map<string, string>();
  /** The last CSRF token read from a page, sent as X-CSRF-Token as application.js does. */
  #token: string | undefined;

  /** `headers` go with every request (a proxy's `x-forwarded-proto`). */
  constructor(base: string, headers: Record<string, string> = {}) {
    this.#base = base;
    this.#headers = headers;
  }

  async request(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | FormData } = {},
  ) {
    const headers: Record<string, string> = { ...this.#headers, ...init.headers };
    if (this.#cookies.size > 0) {
      headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    const res = await fetch(this.#base + path, {
      method,
      headers,
      body: init.body,
      redirect: "manual",
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      this.#cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    return res;
  }

  /** GET an HTML page. */
  page(path: string) {
    return this.request("GET", path, { headers: { accept: "text/html" } });
  }

  /** The CSRF token of a page's first form (after GETting it, so the session cookie is set). */
  async csrfToken(path: string): Promise<string> {
    const html = await (await this.page(path)).text();
    const token = /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`no authenticity_token on ${path}`);
    this.#token = token;
    return token;
  }

  /** Submits a form as a browser does (urlencoded, HTML wanted), with the CSRF token. */
  submit(path: string, token: string, fields: [string, string][]) {
    const body = new URLSearchParams([...fields, ["authenticity_token", token]]).toString();
    return this.request("POST", path, {
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body,
    });
  }

  /**
   * Submits a form with files as a browser does (multipart, HTML wanted), with the CSRF token:
   * `fields` may hold `File`s.
   */
  upload(path: string, token: string, fields: [string, string | File][]) {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    body.append("authenticity_token", token);
    return this.request("POST", path, { headers: { accept: "text/html" }, body });
  }

  /** The page's token header, as application.js adds it to same-origin fetch calls. */
  #tokenHeader(): Record<string, string> {
    return this.#token === undefined ? {} : { "x-csrf-token": this.#token };
  }

  /** A JSON request (Accept and Content-Type JSON), with the page's CSRF token header. */
  json(method: string, path: string, body?: unknown) {
    return this.request(method, path, {
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        ...this.#tokenHeader(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** An XML request (Accept and Content-Type XML), with the page's CSRF token header. */
  xml(method: string, path: string, body?: string) {
    return this.request(method, path, {
      headers: {
        accept: "application/xml",
        "content-type": "application/xml",
        ...this.#tokenHeader(),
      },
      body,
    });
  }
}
