/**
 * The physical floor: raw node:http, the same prepared better-sqlite3 statements and
 * JSON.stringify (and the same views for HTML). No router, no middleware, no framework.
 */
import { createServer } from "node:http";
import { createWidget, findWidget, indexHtml, listWidgets, showHtml } from "./store.mjs";

const JSON_TYPE = { "content-type": "application/json" };
const HTML_TYPE = { "content-type": "text/html; charset=UTF-8" };
const PREFIX = "/widgets/";

function send(res, status, headers, body) {
  res.writeHead(status, headers);
  res.end(body);
}

const server = createServer((req, res) => {
  const url = req.url;
  const html = (req.headers.accept ?? "").startsWith("text/html");
  if (req.method === "GET" && url.startsWith(PREFIX)) {
    const widget = findWidget(url.slice(PREFIX.length));
    if (!widget) return send(res, 404, JSON_TYPE, '{"error":"not found"}');
    return html
      ? send(res, 200, HTML_TYPE, showHtml(widget))
      : send(res, 200, JSON_TYPE, JSON.stringify(widget));
  }
  if (req.method === "GET" && (url === "/widgets" || url.startsWith("/widgets?"))) {
    const query = Object.fromEntries(new URLSearchParams(url.slice(9)));
    const { rows, paginator } = listWidgets(query);
    const headers = html ? { ...HTML_TYPE } : { ...JSON_TYPE };
    headers["x-total-count"] = String(paginator.total_entries_size);
    return send(res, 200, headers, html ? indexHtml(rows, paginator, url) : JSON.stringify(rows));
  }
  if (req.method === "POST" && url === "/widgets") {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let input;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        return send(res, 400, JSON_TYPE, '{"error":"bad json"}');
      }
      const { errors, widget } = createWidget(input);
      if (errors) return send(res, 422, JSON_TYPE, JSON.stringify(errors));
      send(res, 201, JSON_TYPE, JSON.stringify(widget));
    });
    return;
  }
  send(res, 404, JSON_TYPE, '{"error":"not found"}');
});
server.listen(Number(process.env.PORT), "127.0.0.1");
// Exit on SIGTERM so `node --cpu-prof` writes its profile (bench/load/profile.mjs).
process.on("SIGTERM", () => process.exit(0));
