import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sep } from "node:path";
import type { Context } from "hono";
import { SourceMaps } from "../base/source-maps.js";
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

/** A frame of a stack trace: `at name (file:line:column)` or `at file:line:column`. */
const FRAME = /^(\s*at (?:.*? \()?)(.+?):(\d+):(\d+)(\)?)$/;

/**
 * `err` with the frames of compiled files that have a source map beside them (a `wisent build`,
 * run without its stack-trace mapping) moved to their original file, line and column; `err`
 * itself when none moved. A copy: the error stays as the log saw it.
 */
function withOriginalFrames(err: Error, maps: SourceMaps): Error {
  const stack = err.stack;
  if (typeof stack !== "string") return err;
  let moved = false;
  const lines = stack.split("\n").map((line) => {
    const match = FRAME.exec(line);
    if (!match || !/\.[cm]?js$/.test(match[2]!)) return line;
    const place = maps.originalPosition(match[2]!, Number(match[3]), Number(match[4]));
    if (!place) return line;
    moved = true;
    return `${match[1]}${place.file}:${place.line}:${place.column}${match[5]}`;
  });
  if (!moved) return err;
  const copy = Object.create(Object.getPrototypeOf(err)) as Error;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(err));
  Object.defineProperty(copy, "stack", { value: lines.join("\n"), configurable: true });
  return copy;
}

/**
 * The text of a frame's file: the source map's copy when the map carries one, else the file on
 * disk (`wisent build` writes maps without the sources' text, which start-up would read for
 * nothing; the `.ts` files are beside the build).
 */
function sourceLoader(maps: SourceMaps) {
  return async (frame: { fileName?: string; fileType?: string; type?: string }) => {
    if (!frame.fileName || frame.fileType !== "fs" || frame.type === "native") return undefined;
    const mapped = maps.contentOf(frame.fileName);
    if (mapped !== undefined) return { contents: mapped };
    try {
      return { contents: await readFile(frame.fileName, "utf8") };
    } catch {
      return undefined;
    }
  };
}

/**
 * The development page of an unexpected error, made by Youch (the page AdonisJS shows): the
 * message, the source excerpt of the throwing line, the app's frames first (the stack is
 * source-mapped: `src/*.ts` under tsx and in a build made with source maps, whose frames this
 * maps itself when nothing did, the line's text read from the map or else from the file on
 * disk), the request (method,
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
  // Read on this error path only: start-up reads no source map.
  const maps = new SourceMaps();
  youch.useParser((source) =>
    source instanceof Error ? withOriginalFrames(source, maps) : source,
  );
  youch.defineSourceLoader(sourceLoader(maps));
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
