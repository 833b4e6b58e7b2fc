import { type Reply, send } from "./http.js";

/** A minimal browser: keeps the cookies it is given and reads CSRF tokens out of pages. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  #remember(reply: Reply): Reply {
    for (const line of reply.headers["set-cookie"] ?? []) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return reply;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.#remember(
      await send(this.baseUrl, path, { headers: { ...headers, cookie: this.cookieHeader } }),
    );
  }

  /** Posts an urlencoded form (add `authenticity_token` yourself, or use `tokenFrom`). */
  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    return this.#remember(
      await send(this.baseUrl, path, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: this.cookieHeader,
          ...headers,
        },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  }
}

/** The token of a page's `<meta name="csrf-token">`. */
export function tokenFrom(html: string): string {
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no csrf-token meta tag in the page:\n${html.slice(0, 500)}`);
  return token;
}
