import { App } from "wisent";
import {
  forceSSL,
  hostAuthorization,
  paramLogger,
  pendingMigrations,
  securityHeaders,
  transaction,
} from "wisent/middleware";
import { HomeHandler } from "./actions/home.js";
import { db } from "./db.js";
// wisent:imports (generated resources' imports go above this line)

/**
 * The @@name@@ API: JSON by default, no session cookie, no CSRF, no templates. Middleware in
 * order, then routes in match order (first match wins). `listen()` checks its database answers
 * before serving, and closes it after the last request.
 */
export const app = new App({ name: "@@name@@", api: true, database: db });

// In development: a page naming migrations that have not run, instead of "no such table".
app.use(pendingMigrations(db));
app.use(securityHeaders());
// GET /up for load balancers and Docker's HEALTHCHECK: 200 when the app and its database answer,
// else 503. Never redirected to HTTPS nor logged; nothing below runs for it.
app.healthCheck("/up", { database: db });
app.use(hostAuthorization());
app.use(forceSSL());
app.use(paramLogger());
app.use(transaction(db));

app.get("/", HomeHandler);
// The OpenAPI 3.1 document, in development and test (`wisent openapi` prints it); to serve it
// in production too: app.openapi("/openapi.json", { production: true }).
app.openapi("/openapi.json");
// wisent:resources (generated resources are declared above this line)
