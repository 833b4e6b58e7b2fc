/** Bare Hono on @hono/node-server with the same handlers (no Wisent). */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import {
  createWidget,
  findWidget,
  indexHtml,
  listHeaders,
  listWidgets,
  showHtml,
} from "./store.mjs";

const html = (c) => (c.req.header("accept") ?? "").startsWith("text/html");
const app = new Hono({ strict: false });
app.get("/widgets", (c) => {
  const { rows, paginator } = listWidgets(c.req.query());
  for (const [name, value] of Object.entries(listHeaders(paginator, c.req.url))) {
    c.header(name, value);
  }
  return html(c) ? c.html(indexHtml(rows, paginator, c.req.url)) : c.json(rows);
});
app.get("/widgets/:widget_id", (c) => {
  const widget = findWidget(c.req.param("widget_id"));
  if (!widget) return c.json({ error: "not found" }, 404);
  return html(c) ? c.html(showHtml(widget)) : c.json(widget);
});
app.post("/widgets", async (c) => {
  const { errors, widget } = createWidget(await c.req.json());
  return errors ? c.json(errors, 422) : c.json(widget, 201);
});
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
