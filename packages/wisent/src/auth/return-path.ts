/** The query parameter carrying where to go back to after signing in. */
export const RETURN_TO_PARAM = "return_to";

const BASE = "http://return.invalid";

/**
 * `value` when it is a path on this site (`/widgets?page=2`), else undefined: anything that a
 * browser could read as another origin (`//evil.example`, `/\evil.example`, `https://...`,
 * `javascript:`) or that holds control characters is refused, so a return path is never an
 * open redirect.
 *
 * @example
 * safeReturnPath("/widgets/1/edit"); // "/widgets/1/edit"
 * safeReturnPath("//evil.example"); // undefined
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return undefined;
  if (!value.startsWith("/") || value.startsWith("//")) return undefined;
  // Browsers read a backslash as a slash and drop tabs and newlines inside URLs.
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (ch === "\\" || code < 0x20 || code === 0x7f) return undefined;
  }
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
