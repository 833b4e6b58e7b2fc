import type { Context, Handler } from "hono";
import { HttpError } from "../base/http-error.js";
import { isWisentError, WisentError } from "../base/wisent-error.js";
import { isProductionLike } from "../config/settings.js";
import { keepFilesPrivate } from "../data/model-attachments.js";
import { resolveSessionPasswords } from "../middleware/session/session-secrets.js";
import { appStorage } from "../storage/app-storage.js";
import {
  type FileSignatureCheck,
  useFileUrlSecrets,
  verifyFileSignature,
} from "../storage/file-url-signature.js";
import { storedVariant } from "../storage/image-variants.js";
import { FILE_ID, INLINE_TYPES, PRIVATE_FOLDER } from "../storage/stored-attachment.js";
import { contentTypeFor } from "./mime-types.js";

/** How long a signed S3 URL a redirect points to stays valid, in seconds. */
export const SIGNED_URL_SECONDS = 300;

/** A public file's Cache-Control: a key is never reused for other bytes. */
const PUBLIC_FILE_CACHE = "private, max-age=31536000, immutable";

/**
 * Private files' URLs are signed with the app's session secrets (`SESSION_SECRET`; development's
 * own and test's random one when unset): the first signs, all of them verify.
 */
export function signFileUrlsWithSessionSecrets(env: string): void {
  useFileUrlSecrets(() => resolveSessionPasswords({ env }).map((password) => password.secret));
}

/**
 * Makes the files of `model` private (a resource of it needs a sign-in), when it has
 * attachments and does not declare them public. In production-like environments the secret
 * their URLs are signed with must be there at start-up, not on the first page that shows one.
 */
export function keepResourceFilesPrivate(model: unknown, resource: string, env: string): void {
  if (!keepFilesPrivate(model)) return;
  signFileUrlsWithSessionSecrets(env);
  if (!isProductionLike(env)) return;
  try {
    resolveSessionPasswords({ env });
  } catch (error) {
    throw new WisentError(
      "E_CONFIG_INVALID",
      `${resource}: its records' files are private (the resource needs a sign-in), served by URLs signed with SESSION_SECRET: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** `Content-Disposition`: inline for the {@link INLINE_TYPES}, else a download named `name`. */
export function contentDisposition(type: string, name: string): string {
  const how = INLINE_TYPES.has(type) ? "inline" : "attachment";
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${how}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A single `bytes=` range of a file of `size` bytes; undefined: serve it whole; null: 416. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges (multipart/byteranges) or another unit: the whole file, as RFC 9110 allows.
  if (!match) return undefined;
  const [, from, to] = match as unknown as [string, string, string];
  if (from === "" && to === "") return undefined;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

/** A variant's download name: the original's, with the variant and its own extension (`photo-thumb.webp`). */
function variantFileName(name: string, variant: string, variantKey: string): string {
  const dot = name.lastIndexOf(".");
  const base = dot > 0 ? name.slice(0, dot) : name;
  const extension = variantKey.slice(variantKey.lastIndexOf(".") + 1);
  return `${base}-${variant}.${extension}`;
}

/**
 * {@link verifyFileSignature}, where an app without the secret (no private files: a production
 * app with them does not start without it) finds every signature invalid, never a 500.
 */
function checkSignature(
  key: string,
  expires: string | undefined,
  signature: string | undefined,
): FileSignatureCheck {
  try {
    return verifyFileSignature(key, expires, signature);
  } catch (error) {
    if (!isWisentError(error)) throw error;
    return { ok: false, reason: "invalid" };
  }
}

/**
 * Which stored file a request names: a public one by its id alone, a private one (in the
 * private folder) by its id and a signature that has not expired, valid until `until` (unix
 * seconds). A forged or expired signature is a 403 saying which.
 */
function requestedFile(c: Context, id: string): { key: string; until?: number } {
  const expires = c.req.query("expires");
  const signature = c.req.query("signature");
  if (expires === undefined && signature === undefined) return { key: id };
  const key = `${PRIVATE_FOLDER}${id}`;
  const check = checkSignature(key, expires, signature);
  if (check.ok) return { key, until: check.expires };
  throw new HttpError(
    403,
    check.reason === "expired"
      ? "the file's link has expired: open the page that links to it again"
      : "the file's link is not valid (its expires or signature parameter was changed)",
  );
}

/**
 * GET /files/{file_key}/{file_name}: a stored file (a record's attachment URL), or with
 * `?variant=thumb` an image's variant (made on the first request: `storedVariant`). A public
 * file is named by its id, cached for a year; a private file (of a record only signed-in users
 * see) needs the URL's `expires` and `signature` (see `signedFileQuery`), is cached privately
 * until the URL expires, and is not found by its id alone. On the local disk it is streamed with
 * its Content-Type, Content-Length, ETag and Last-Modified, answering `If-None-Match` (304) and
 * a single `Range` (206, or 416); on S3 it is a 302 to a signed URL valid
 * {@link SIGNED_URL_SECONDS} seconds at most, so the app never proxies the bytes. Every answer is
 * `X-Content-Type-Options: nosniff`, and only inline types are served inline.
 */
export function storedFilesHandler(): Handler {
  return async (c: Context) => {
    const id = c.req.param("file_key") ?? "";
    let name = c.req.param("file_name") ?? id;
    if (!FILE_ID.test(id)) throw new HttpError(404, `file not found: ${id.slice(0, 100)}`);
    const { key: file, until } = requestedFile(c, id);
    let key = file;
    // Seconds the URL has left: how long a browser may keep a private file.
    const left =
      until === undefined ? undefined : Math.max(1, until - Math.floor(Date.now() / 1000));
    const storage = appStorage();
    const variant = c.req.query("variant");
    if (variant !== undefined) {
      key = await storedVariant(storage, key, contentTypeFor(key), variant);
      name = variantFileName(name, variant, key);
    }
    const type = contentTypeFor(key);
    const disposition = contentDisposition(type, name);
    if (storage.redirects) {
      const url = await storage.signedUrl(key, {
        contentType: type,
        contentDisposition: disposition,
        expiresIn: Math.min(SIGNED_URL_SECONDS, left ?? SIGNED_URL_SECONDS),
      });
      return new Response(null, {
        status: 302,
        headers: {
          location: url,
          "cache-control": "private, no-store",
          "x-content-type-options": "nosniff",
        },
      });
    }
    const info = await storage.info(key);
    if (!info) throw new HttpError(404, `file not found: ${id}`);
    const headers: Record<string, string> = {
      "content-type": type,
      "content-disposition": disposition,
      "x-content-type-options": "nosniff",
      "accept-ranges": "bytes",
      etag: info.etag,
      "last-modified": info.lastModified.toUTCString(),
      "cache-control": left === undefined ? PUBLIC_FILE_CACHE : `private, max-age=${left}`,
    };
    if (c.req.header("if-none-match") === info.etag) {
      return new Response(null, { status: 304, headers });
    }
    const ifRange = c.req.header("if-range");
    const range =
      ifRange === undefined || ifRange === info.etag
        ? byteRange(c.req.header("range"), info.size)
        : undefined;
    if (range === null) {
      headers["content-range"] = `bytes */${info.size}`;
      return new Response(null, { status: 416, headers });
    }
    const length = range ? range.end - range.start + 1 : info.size;
    headers["content-length"] = String(length);
    if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${info.size}`;
    const status = range ? 206 : 200;
    if (c.req.method === "HEAD" || length === 0) return new Response(null, { status, headers });
    const { Readable } = await import("node:stream");
    const stream = await storage.read(key, range);
    return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
  };
}
