import { randomBytes } from "node:crypto";
import { sep } from "node:path";
import type { Context } from "hono";
import { parsedBodyIfRead } from "../http/body.js";
import { filterHeaders, filterParams } from "../middleware/param-logger/filter-params.js";
import { requestParams } from "../middleware/param-logger/param-logger.js";

/** The request's parameters as the param logger shows them: query and path, and a form read. */
async function loggedParams(c: Context): Promise<{ params: unknown; form: unknown }> {
  let pathParams: Record<string, string> = {};
  try {
    pathParams = c.req.param() as Record<string, string>;
  } catch {
    // No route matched: no path parameters.
  }
  const form = await parsedBodyIfRead(c)?.catch(() => undefined);
  return {
    params: filterParams(requestParams(c.req.url, pathParams)),
    form: form ? filterParams(form) : undefined,
  };
}

/** A frame of the app's own code: under the working folder, outside node_modules. */
function isAppFile(fileName: string | undefined, root: string): boolean {
  if (fileName === undefined) return false;
  return (
    fileName.startsWith(root) &&
    !fileName.includes(`${sep}node_modules${sep}`) &&
    !fileName.includes("/node_modules/")
  );
}

/**
 * The development page of an unexpected error, made by Youch (the page AdonisJS shows): the
 * message, the source excerpt of the throwing line, the app's frames first (the stack is
 * source-mapped: `src/*.ts` under tsx and in a build made with source maps), the request (method,
 * path, parameters and headers filtered as the param logger filters them) and the route that
 * matched. Returns the page and the Content-Security-Policy it needs: its inline styles and
 * scripts carry the request's CSP nonce when the app's policy has one, else a nonce of its own.
 *
 * @example
 * const { html, csp } = await devErrorPage(new Error("boom"), c);
 */
export async function devErrorPage(
  err: Error,
  c: Context,
  status: number,
  title: string,
): Promise<{ html: string; csp: string | undefined }> {
  // Loaded on the first error only: production and a healthy development server never load it.
  const { Youch } = await import("youch");
  const youch = new Youch();
  const root = process.cwd() + sep;
  youch.useTransformer((parsed) => {
    for (const frame of parsed.frames) {
      if (frame.type === "app" && !isAppFile(frame.fileName, root)) frame.type = "module";
    }
    // The app's frames first: the line to fix leads, the framework's insides follow.
    const app = parsed.frames.filter((frame) => frame.type === "app");
    parsed.frames = [...app, ...parsed.frames.filter((frame) => frame.type !== "app")];
  });
  const runtime = c.get("wisent");
  const handler = runtime?.handlerFor(c.req.method, c.req.path);
  const { params, form } = await loggedParams(c);
  youch.metadata.group("Request", {
    Request: [
      { key: "Method", value: c.req.method },
      { key: "Path", value: c.req.path },
      { key: "Status", value: status },
      { key: "Request id", value: c.get("requestId") ?? "" },
    ],
    Route: [
      { key: "Handler", value: handler ?? "(no route matched)" },
      { key: "Path pattern", value: c.req.routePath || "" },
    ],
    Params: [
      { key: "Params", value: params, dump: true },
      ...(form === undefined ? [] : [{ key: "Form", value: form, dump: true }]),
    ],
    Headers: Object.entries(filterHeaders(c.req.raw.headers)).map(([key, value]) => ({
      key,
      value,
    })),
  });
  const appNonce = (c.get as (key: string) => unknown)("secureHeadersNonce");
  const nonce = typeof appNonce === "string" ? appNonce : randomBytes(16).toString("base64");
  const html = await youch.toHTML(err, { title, cspNonce: nonce, offset: 0 });
  const csp =
    typeof appNonce === "string"
      ? undefined
      : // Youch's dumps colour values with style attributes: allowed, as attributes only.
        `default-src 'none'; style-src 'nonce-${nonce}'; style-src-attr 'unsafe-inline'; script-src 'nonce-${nonce}'; img-src data:; font-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
  return { html, csp };
}
