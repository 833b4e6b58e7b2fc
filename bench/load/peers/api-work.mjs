/**
 * The work every equal-work API peer does per request, as the Wisent API app does it, written
 * the way a careful user of Fastify or Hono would (no Wisent code but the shared zod model and
 * the pagination header builder, both also used by the other peers):
 *   - the security headers Wisent sends on a JSON answer (configured in each framework's own
 *     security middleware: @fastify/helmet, hono/secure-headers), `Cache-Control: private,
 *     no-cache`, `Vary: Accept`, an `X-Request-Id`, a weak ETag on a 200 GET;
 *   - one JSON request log line (the fields of Wisent's line: time, level, msg, request_id,
 *     method, path, status, duration_ms, params);
 *   - a per-request transaction opened lazily (reads before the first write need none, as in
 *     Wisent on SQLite; a create runs in BEGIN/COMMIT);
 *   - zod validation (the app's schema), 422 `{"errors": ...}` with the same messages.
 */
import { createHash, randomUUID } from "node:crypto";
import { paginationHeaders } from "wisent/db";
import { db, findWidget as findRow, insertWidget, paginate, stampWidget } from "./store.mjs";
import { Widget } from "./widget.mjs";

const begin = db.prepare("begin");
const commit = db.prepare("commit");
const rollback = db.prepare("rollback");

/** The JSON answer's security headers, as each framework's middleware is configured to send them. */
export const JSON_SECURITY = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
};

/** The headers every answer carries besides the security ones. */
export const COMMON = { "cache-control": "private, no-cache", vary: "Accept" };

export const requestId = () => randomUUID();
export const weakETag = (body) => `W/"${createHash("sha1").update(body).digest("base64url")}"`;

/** A request's transaction, begun on first write, ended by `finish`. */
export class LazyTransaction {
  open = false;
  write(fn) {
    if (!this.open) {
      begin.run();
      this.open = true;
    }
    return fn();
  }
  finish(ok) {
    if (!this.open) return;
    this.open = false;
    (ok ? commit : rollback).run();
  }
}

/** Widgets read without a transaction (before any write), as Wisent reads on SQLite. */
const fromRow = (row) =>
  row && {
    id: row.id,
    title: row.title,
    description: row.description,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };

export const findWidget = (id) => fromRow(findRow(id));

export function listWidgets(query, url) {
  const { rows, paginator } = paginate(query, fromRow);
  return { rows, headers: paginationHeaders(paginator, url) };
}

/** Validates with zod (the app's schema) and inserts in the request's transaction. */
export function createWidget(tx, input) {
  const result = Widget.validate(input);
  if (!result.ok) return { status: 422, body: result.errors };
  const widget = stampWidget(result.data);
  tx.write(() => insertWidget(widget));
  return { status: 201, body: widget };
}

/** Wisent's request line: `{"time","level","msg","request_id","method","path","status","duration_ms","params"}`. */
export function logLine(id, method, path, status, ms, params) {
  return JSON.stringify({
    time: new Date().toISOString(),
    level: status >= 500 ? "error" : "info",
    msg: `${method} ${path} ${status}`,
    request_id: id,
    method,
    path,
    status,
    duration_ms: Math.round(ms * 1000) / 1000,
    params,
  });
}
