/** A response format a client can ask for with a path extension (`/widgets/1.json`). */
export type PathFormat = "html" | "json" | "xml";

const EXTENSION = /\.(html|json|xml)$/;
const formatsByRequest = new WeakMap<Request, PathFormat>();

/**
 * Splits a format extension off a path: `/widgets/1.json` -> `{ path: "/widgets/1", format: "json" }`.
 * Paths without one of the three extensions come back unchanged.
 *
 * @example
 * splitPathFormat("/widgets.xml"); // { path: "/widgets", format: "xml" }
 */
export function splitPathFormat(path: string): { path: string; format: PathFormat | undefined } {
  const match = EXTENSION.exec(path);
  if (!match) return { path, format: undefined };
  return { path: path.slice(0, match.index), format: match[1] as PathFormat };
}

/** Remembers the extension the App stripped from this request's path before routing. */
export function rememberPathFormat(request: Request, format: PathFormat): void {
  formatsByRequest.set(request, format);
}

/**
 * The format named by the request path's extension, if the App stripped one before routing.
 * Format negotiation reads it first (docs/guides/api-and-openapi.md: extension, then `?format=`, then `Accept`...).
 * @param request - the request as routed (`c.req.raw`)
 * @returns `html`, `json` or `xml`, or undefined when the path had no such extension
 * @example pathFormatOf(c.req.raw); // "json" for GET /widgets/1.json
 */
export function pathFormatOf(request: Request): PathFormat | undefined {
  return formatsByRequest.get(request);
}
