/** Express 5 with the same handlers. */
import express from "express";
import {
  createWidget,
  findWidget,
  indexHtml,
  listHeaders,
  listWidgets,
  showHtml,
} from "./store.mjs";

const html = (req) => (req.headers.accept ?? "").startsWith("text/html");
const app = express();
app.get("/widgets", (req, res) => {
  const { rows, paginator } = listWidgets(req.query);
  res.set(listHeaders(paginator, req.originalUrl));
  if (html(req)) return res.type("html").send(indexHtml(rows, paginator, req.originalUrl));
  res.json(rows);
});
app.get("/widgets/:widget_id", (req, res) => {
  const widget = findWidget(req.params.widget_id);
  if (!widget) return res.status(404).json({ error: "not found" });
  if (html(req)) return res.type("html").send(showHtml(widget));
  res.json(widget);
});
app.post("/widgets", express.json(), (req, res) => {
  const { errors, widget } = createWidget(req.body);
  if (errors) return res.status(422).json(errors);
  res.status(201).json(widget);
});
app.listen(Number(process.env.PORT), "127.0.0.1");
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
