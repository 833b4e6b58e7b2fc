import { App, forceSSL, paramLogger, securityHeaders, transaction } from "wisent";
import { HomeHandler } from "./actions/home.js";
import { db } from "./db.js";
// wisent:imports (generated resources' imports go above this line)

/**
 * The @@name@@ API: JSON by default, no session cookie, no CSRF, no templates. Middleware in
 * order, then routes in match order (first match wins).
 */
export const app = new App({ name: "@@name@@", api: true });

app.use(securityHeaders());
app.use(forceSSL());
app.use(paramLogger());
app.use(transaction(db));

app.get("/", HomeHandler);
app.openapi("/openapi.json"); // the OpenAPI 3.1 document (`wisent openapi` prints it)
// wisent:resources (generated resources are declared above this line)
