/**
 * The Wisent API app's JSON API on Hono, with the same work per request (see api-work.mjs):
 * hono/secure-headers for the security headers, a logger middleware writing the same JSON line,
 * zod validation, a transaction opened lazily per request.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import {
  COMMON,
  createWidget,
  findWidget,
  LazyTransaction,
  listWidgets,
  logLine,
  requestId,
  weakETag,
} from "./api-work.mjs";

const app = new Hono({ strict: false });
app.use(
  secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: "same-origin",
    originAgentCluster: false,
    referrerPolicy: false,
    // Wisent runs in production here, where force-SSL sends HSTS (two years, as Rails).
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: "DENY",
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
);
app.use(async (c, next) => {
  const started = performance.now();
  const id = requestId();
  const tx = new LazyTransaction();
  c.set("tx", tx);
  c.set("requestId", id);
  await next();
  tx.finish(c.res.status < 400);
  for (const name in COMMON) c.header(name, COMMON[name]);
  c.header("x-request-id", id);
  const path = c.req.path;
  process.stdout.write(
    `${logLine(id, c.req.method, path, c.res.status, performance.now() - started, {
      ...c.req.query(),
      ...c.req.param(),
    })}\n`,
  );
});

const json = (c, status, value, etag) => {
  const body = JSON.stringify(value);
  const headers = { "content-type": "application/json" };
  if (etag) headers.etag = weakETag(body);
  return c.body(body, status, headers);
};

app.get("/widgets", (c) => {
  // Behind the TLS proxy: the links name the scheme the client used.
  const https = c.req.header("x-forwarded-proto") === "https";
  const url = https ? c.req.url.replace(/^http:/, "https:") : c.req.url;
  const { rows, headers } = listWidgets(c.req.query(), url);
  for (const name in headers) c.header(name, headers[name]);
  return json(c, 200, rows, true);
});
app.get("/widgets/:widget_id", (c) => {
  const id = c.req.param("widget_id");
  const widget = findWidget(id);
  if (!widget) return json(c, 404, { error: `widget not found: ${id}`, code: 404 });
  return json(c, 200, widget, true);
});
app.post("/widgets", async (c) => {
  const { status, body } = createWidget(c.get("tx"), await c.req.json());
  return json(c, status, body);
});

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
