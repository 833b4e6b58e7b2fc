/** A minimal cookie jar for one test client: name -> value, honouring deletion by Max-Age/Expires. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /**
   * Stores the cookies of a response's `Set-Cookie` headers (an expired one is removed).
   * @param response - the response whose cookies to keep
   */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) this.storeHeader(header);
  }

  /**
   * Stores one `Set-Cookie` header's cookie, or removes it when the header expires it.
   * @param header - the header's value (`name=value; Path=/; HttpOnly`)
   */
  storeHeader(header: string): void {
    const [pair, ...attributes] = header.split(";");
    const at = pair?.indexOf("=") ?? -1;
    if (!pair || at <= 0) return;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    let expired = value === "";
    for (const attribute of attributes) {
      const [key, val = ""] = attribute.trim().split("=");
      const lower = key?.toLowerCase();
      if (lower === "max-age" && Number(val) <= 0) expired = true;
      if (lower === "expires" && Date.parse(val) <= Date.now()) expired = true;
    }
    if (expired) this.#cookies.delete(name);
    else this.#cookies.set(name, value);
  }

  /**
   * A cookie's value.
   * @param name - the cookie's name
   * @returns its value, or undefined when the jar has none
   */
  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  /**
   * Puts a cookie in the jar (as if the app had set it).
   * @param name - the cookie's name
   * @param value - its value, as sent
   */
  set(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  /**
   * Removes a cookie.
   * @param name - the cookie's name
   */
  delete(name: string): void {
    this.#cookies.delete(name);
  }

  /** Removes every cookie. */
  clear(): void {
    this.#cookies.clear();
  }

  /**
   * The `Cookie` request header.
   * @returns `a=1; b=2`, or undefined when the jar is empty
   */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
