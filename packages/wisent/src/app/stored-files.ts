import type { Context, Handler } from "hono";
import { HttpError } from "../base/http-error.js";
import { appStorage } from "../storage/app-storage.js";
import { storedVariant } from "../storage/image-variants.js";
import { INLINE_TYPES } from "../storage/stored-attachment.js";
import { contentTypeFor } from "./mime-types.js";

/** How long a signed S3 URL a redirect points to stays valid, in seconds. */
export const SIGNED_URL_SECONDS = 300;

/** The keys Wisent stores files under: a UUID and the extension of the type found in the bytes. */
const KEY = /^[0-9a-f-]{36}\.[a-z0-9]{1,10}$/;

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
 * GET /files/{file_key}/{file_name}: a stored file (a record's attachment URL), or with
 * `?variant=thumb` an image's variant (made on the first request: `storedVariant`). On the local
 * disk it is streamed with its Content-Type, Content-Length, ETag and Last-Modified, answering
 * `If-None-Match` (304) and a single `Range` (206, or 416); on S3 it is a 302 to a signed URL
 * valid {@link SIGNED_URL_SECONDS} seconds, so the app never proxies the bytes. Every answer is
 * `X-Content-Type-Options: nosniff`, and only inline types are served inline.
 */
export function storedFilesHandler(): Handler {
  return async (c: Context) => {
    let key = c.req.param("file_key") ?? "";
    let name = c.req.param("file_name") ?? key;
    if (!KEY.test(key)) throw new HttpError(404, `file not found: ${key.slice(0, 100)}`);
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
        expiresIn: SIGNED_URL_SECONDS,
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
    if (!info) throw new HttpError(404, `file not found: ${key}`);
    const headers: Record<string, string> = {
      "content-type": type,
      "content-disposition": disposition,
      "x-content-type-options": "nosniff",
      "accept-ranges": "bytes",
      etag: info.etag,
      "last-modified": info.lastModified.toUTCString(),
      // A key is never reused for other bytes.
      "cache-control": "private, max-age=31536000, immutable",
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
