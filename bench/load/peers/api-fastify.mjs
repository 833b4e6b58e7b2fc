/**
 * The Wisent API app's JSON API on Fastify 5, with the same work per request (see api-work.mjs):
 * @fastify/helmet for the security headers, pino for the request log line, zod validation, a
 * transaction opened lazily per request.
 */
import helmet from "@fastify/helmet";
import Fastify from "fastify";
import pino from "pino";
import {
  COMMON,
  createWidget,
  findWidget,
  LazyTransaction,
  listWidgets,
  requestId,
  weakETag,
} from "./api-work.mjs";

const log = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
const app = Fastify({
  logger: false,
  disableRequestLogging: true,
  genReqId: requestId,
  trustProxy: true,
  keepAliveTimeout: 5_000,
  routerOptions: { ignoreTrailingSlash: true },
});
await app.register(helmet, {
  global: true,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: { policy: "same-origin" },
  originAgentCluster: false,
  referrerPolicy: false,
  // Wisent runs in production here, where force-SSL sends HSTS (two years, as Rails).
  strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: "deny" },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});
app.decorateRequest("tx", null);
app.addHook("onRequest", async (request, reply) => {
  request.tx = new LazyTransaction();
  reply.headers({ ...COMMON, "x-request-id": request.id });
});
app.addHook("onSend", async (request, reply, payload) => {
  request.tx.finish(reply.statusCode < 400);
  return payload;
});
app.addHook("onResponse", async (request, reply) => {
  const path = request.url.split("?")[0];
  log.info({
    msg: `${request.method} ${path} ${reply.statusCode}`,
    request_id: request.id,
    method: request.method,
    path,
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 1000) / 1000,
    params: { ...request.query, ...request.params },
  });
});

const json = (reply, status, value, etag) => {
  const body = JSON.stringify(value);
  // As Wisent: no charset parameter (JSON is UTF-8 by definition, RFC 8259).
  reply.code(status).header("content-type", "application/json");
  if (etag) reply.header("etag", weakETag(body));
  return reply.send(body);
};

app.get("/widgets", (request, reply) => {
  // Behind the TLS proxy (trustProxy): the links name the scheme the client used.
  const url = `${request.protocol}://${request.headers.host}${request.url}`;
  const { rows, headers } = listWidgets(request.query, url);
  reply.headers(headers);
  return json(reply, 200, rows, true);
});
app.get("/widgets/:widget_id", (request, reply) => {
  const widget = findWidget(request.params.widget_id);
  if (!widget) {
    return json(reply, 404, { error: `widget not found: ${request.params.widget_id}`, code: 404 });
  }
  return json(reply, 200, widget, true);
});
app.post("/widgets", (request, reply) => {
  const { status, body } = createWidget(request.tx, request.body ?? {});
  return json(reply, status, body);
});

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
