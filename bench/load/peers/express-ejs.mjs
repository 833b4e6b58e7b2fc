/**
 * Express 5 rendering the shop's pages with EJS (Express's most-used view engine), as a careful
 * user would: views in views/*.ejs with the layout as two partials and the paginator as a third,
 * `<%= %>` (escaped) for every value, the compiled views cached (Express does so in production).
 * The same data work as the other peers (store.mjs); throughput.mjs checks its pages are the web
 * app's, byte for byte but for the CSRF token.
 */
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import express from "express";
import { pageSlots, pageUrlsOf } from "wisent/jsx";
import { findWidget, listHeaders, listWidgets } from "./store.mjs";

const app = express();
app.set("view engine", "ejs");
app.set("views", fileURLToPath(new URL("./views", import.meta.url)));
app.set("view cache", true);

// The shop masks its session's CSRF token per request: a fresh random token per page here too.
const csrfToken = () => randomBytes(64).toString("base64url");

app.get("/widgets", (req, res) => {
  const { rows, paginator } = listWidgets(req.query);
  res.set(listHeaders(paginator, req.originalUrl));
  res.render("index", {
    widgets: rows,
    paginator,
    url: req.originalUrl,
    pageSlots,
    pageUrlsOf,
    csrfToken: csrfToken(),
  });
});
app.get("/widgets/:widget_id", (req, res) => {
  const widget = findWidget(req.params.widget_id);
  if (!widget) return res.status(404).json({ error: "not found" });
  res.render("show", { widget, csrfToken: csrfToken() });
});
app.listen(Number(process.env.PORT), "127.0.0.1");
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
