// The API app's middleware chain (security headers, force-SSL) around a JSON show, with the
// request log (`paramLogger()`, its default logger: JSON lines batched to stdout) when LOGGER=1,
// from the Wisent build in WISENT_DIST (a dist folder inside this repository, so that hono
// resolves), for bench/load/logger.mjs. The handler reads the row with the peers' prepared
// statement, so two builds differ only in Wisent's own code.
// Run it with plain node: `WISENT_DIST=... DATABASE_FILE=... PORT=... LOGGER=1 node <this>`.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { findWidget } from "../../../peers/store.mjs";

const dist = resolve(process.env.WISENT_DIST ?? "packages/wisent/dist");
const w = await import(pathToFileURL(join(dist, "index.js")).href);

class WidgetsResource extends w.Resource {
  show(c) {
    const widget = findWidget(c.req.param("widget_id"));
    return widget ? c.respond(200, { json: widget }) : c.json({ error: "not found" }, 404);
  }
}

const app = new w.App({ name: "shop", api: true });
app.use(w.securityHeaders());
app.use(w.forceSSL());
if (process.env.LOGGER === "1") app.use(w.paramLogger());
app.resource("/widgets", new WidgetsResource());
await app.listen();
