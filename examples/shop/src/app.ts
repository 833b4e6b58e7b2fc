import { fileURLToPath } from "node:url";
import { App, type PathsOf } from "wisent";
import { layout } from "wisent/jsx";
import {
  csrf,
  flashMessages,
  forceSSL,
  hostAuthorization,
  i18n,
  paramLogger,
  pendingMigrations,
  securityHeaders,
  session,
  transaction,
} from "wisent/middleware";
import { HomeHandler } from "./actions/home.js";
import { ImagesResource } from "./actions/images.js";
import { WidgetsResource } from "./actions/widgets.js";
import { db } from "./db.js";
import { Layout } from "./templates/layout.js";
// wisent:imports (generated resources' imports go above this line)

/**
 * The shop application: middleware in order, then routes in match order (first match wins).
 * `listen()` checks its database answers before serving, and closes it after the last request.
 */
export const app = new App({ name: "shop", database: db });

// Route names are typed wherever they are written (`usePaths()` in templates, `c.redirectTo`,
// `c.respond`'s `redirect` and `location`): the helpers of the resource groups this file exports
// and rootPath. `c.redirectTo(303, "widgetPth")` fails tsc.
declare module "wisent" {
  interface Register {
    paths: PathsOf<typeof import("./app.js"), "rootPath">;
  }
}

// In development: a page naming migrations that have not run, instead of "no such table".
app.use(pendingMigrations(db));
app.use(securityHeaders({ contentSecurityPolicy: { styleSrc: ["'self'"] } }));
// GET /up for load balancers and Docker's HEALTHCHECK: 200 when the app and its database answer,
// else 503. Never redirected to HTTPS nor logged; nothing below runs for it.
app.healthCheck("/up", { database: db });
app.use(hostAuthorization());
app.use(forceSSL());
app.use(paramLogger());
app.use(session());
app.use(flashMessages());
app.use(csrf());
app.use(transaction(db));
app.use(i18n({ directory: fileURLToPath(new URL("./locales/", import.meta.url)) }));
app.use(layout(Layout));

app.get("/", HomeHandler);
// The OpenAPI 3.1 document, in development and test (`wisent openapi` prints it); to serve it
// in production too: app.openapi("/openapi.json", { production: true }).
app.openapi("/openapi.json");
export const widgets = app.resource("/widgets", new WidgetsResource(), { live: true });
app.storedFiles(); // GET /files/...: records' attachments, from the storage STORAGE_URL names
export const widgetImages = widgets.resource("/images", new ImagesResource());
// wisent:resources (generated resources are declared above this line)
app.serveFiles("/", "public");
