import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { Readable } from "node:stream";
import type { MiddlewareHandler } from "hono";
import { HttpError } from "../base/http-error.js";
import { assetsMaxAgeSetting } from "../config/settings.js";
import { pathFormatOf } from "../http/path-format.js";
import { contentTypeFor } from "./mime-types.js";

/** Options of `serveFiles`. */
export interface StaticFilesOptions {
  /** Cache-Control max-age in seconds; default `ASSETS_MAX_AGE` or one year, as Buffalo. */
  readonly maxAge?: number;
  /** File served for a directory path (`/` -> `index.html`); default `index.html`. */
  readonly index?: string;
}

/**
 * Middleware serving files below `dir` for paths under `prefix`, with ETag (304 on a match) and
 * Cache-Control. A path that escapes `dir` (`..`, encoded or not) is refused with 400, a path
 * that cannot be decoded also gets 400; dotfiles (any segment starting with `.`) and files whose
 * real path lies outside `dir` (symlinks out of it) are not served, and like a missing file fall
 * through to the next route or 404.
 */
export function staticFiles(
  prefix: string,
  dir: string,
  options: StaticFilesOptions = {},
): MiddlewareHandler {
  const root = resolve(dir);
  const maxAge = options.maxAge ?? assetsMaxAgeSetting();
  const index = options.index ?? "index.html";
  const strip = prefix === "/" ? 0 : prefix.length;
  return async (c, next) => {
    // The raw URL, not c.req.path: Hono has already decoded part of that.
    const pathname = rawPathname(c.req.url);
    const format = pathFormatOf(c.req.raw);
    const requested = format ? `${pathname}.${format}` : pathname;
    const relative = decodePath(requested.slice(strip));
    const file = resolve(root, `.${sep}${relative}`);
    if (file !== root && !file.startsWith(root + sep))
      throw new HttpError(400, `invalid path: ${requested}`);
    // Dotfiles (`.env`, `.git/config`, `.well-known` included) are never served: Rails' and
    // nginx's usual rule; a missing file falls through to the next route or 404.
    if (relative.split(/[\\/]/).some((segment) => segment.startsWith("."))) return next();
    const found = await findFile(file, index, await realRoot(root));
    if (!found) return next();
    const etag = `"${found.mtimeMs.toString(16)}-${found.size.toString(16)}"`;
    const headers: Record<string, string> = { ETag: etag, "Cache-Control": `max-age=${maxAge}` };
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
    headers["Content-Type"] = contentTypeFor(found.path);
    headers["Content-Length"] = String(found.size);
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    const body = Readable.toWeb(createReadStream(found.path)) as ReadableStream<Uint8Array>;
    return c.body(body, 200, headers);
  };
}

function rawPathname(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const end = url.search(/[?#]/);
  return end === -1 || end < start ? url.slice(start) : url.slice(start, end);
}

function decodePath(path: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw new HttpError(400, `could not decode path: ${path}`);
  }
  if (decoded.includes("\0") || decoded.split(/[\\/]/).includes("..")) {
    throw new HttpError(400, `invalid path: ${path}`);
  }
  return decoded;
}

/** The folder's real path (symlinks resolved), worked out once per folder. */
const realRoots = new Map<string, Promise<string>>();
function realRoot(root: string): Promise<string> {
  let real = realRoots.get(root);
  if (!real) {
    real = realpath(root).catch(() => root);
    realRoots.set(root, real);
  }
  return real;
}

/** A file whose real path (symlinks followed) lies inside the served folder, or undefined. */
async function findFile(
  file: string,
  index: string,
  root: string,
): Promise<{ path: string; size: number; mtimeMs: number } | undefined> {
  for (const candidate of [file, resolve(file, index)]) {
    try {
      const info = await stat(candidate);
      if (!info.isFile()) continue;
      // A symlink out of the folder (to /etc, to the app's .env) is not the folder's file.
      const real = await realpath(candidate);
      if (!real.startsWith(root + sep)) continue;
      return { path: real, size: info.size, mtimeMs: Math.floor(info.mtimeMs) };
    } catch {
      // not there: try the next candidate, then fall through
    }
  }
  return undefined;
}
