/** Fastify 5 with the same handlers (no logger, as Fastify's default). */
import Fastify from "fastify";
import {
  createWidget,
  findWidget,
  indexHtml,
  listHeaders,
  listWidgets,
  showHtml,
} from "./store.mjs";

const html = (req) => (req.headers.accept ?? "").startsWith("text/html");
const app = Fastify();
app.get("/widgets", async (req, reply) => {
  const { rows, paginator } = listWidgets(req.query);
  reply.headers(listHeaders(paginator, req.url));
  if (html(req))
    return reply.type("text/html; charset=UTF-8").send(indexHtml(rows, paginator, req.url));
  return rows;
});
app.get("/widgets/:widget_id", async (req, reply) => {
  const widget = findWidget(req.params.widget_id);
  if (!widget) return reply.code(404).send({ error: "not found" });
  if (html(req)) return reply.type("text/html; charset=UTF-8").send(showHtml(widget));
  return widget;
});
app.post("/widgets", async (req, reply) => {
  const { errors, widget } = createWidget(req.body);
  return errors ? reply.code(422).send(errors) : reply.code(201).send(widget);
});
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
