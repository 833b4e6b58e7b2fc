/** A minimal cookie jar for one test client: name -> value, honouring deletion by Max-Age/Expires. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Stores the cookies of a response's `Set-Cookie` headers. */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) this.storeHeader(header);
  }

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

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  set(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  delete(name: string): void {
    this.#cookies.delete(name);
  }

  clear(): void {
    this.#cookies.clear();
  }

  /** The `Cookie` request header, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
