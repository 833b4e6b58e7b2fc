// The API app with only the middleware named in ABLATE (comma list of security-headers,
// force-ssl, logger; the request transaction is always on), for bench/load/ablate.mjs: what each
// layer costs under load. Its resource is the CLI-generated API app's own WidgetsResource
// (bench/load/apps/generated/shop, made by lib/apps.mjs when missing), loaded through tsx as
// `wisent start` loads it. Run it with plain node: `DATABASE_URL=sqlite:... PORT=... node <this>`.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";
import { App } from "wisent";
import { database } from "wisent/db";
import { forceSSL, paramLogger, securityHeaders, transaction } from "wisent/middleware";
import { existingApiApp } from "../../../lib/apps.mjs";

register();
const app = existingApiApp();
const { WidgetsResource } = await import(pathToFileURL(join(app, "src/actions/widgets.ts")).href);

const layers = (process.env.ABLATE ?? "").split(",").filter(Boolean);
const db = database(process.env.DATABASE_URL);
const server = new App({ name: "shop", api: true });
if (layers.includes("security-headers")) server.use(securityHeaders());
if (layers.includes("force-ssl")) server.use(forceSSL());
if (layers.includes("logger")) server.use(paramLogger());
server.use(transaction(db));
server.resource("/widgets", new WidgetsResource());
await db.check();
server.onShutdown(() => db.close());
await server.listen();
