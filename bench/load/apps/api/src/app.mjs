import { App, forceSSL, paramLogger, transaction } from "wisent";
import { WidgetsResource } from "./actions/widgets.mjs";
import { db } from "./db.mjs";

/**
 * The API app as `wisent new shop --api` + `wisent g r widget title description:nulls.Text` make
 * it: force-SSL, parameter logging, the request transaction; no session, CSRF or templates.
 */
export const app = new App({ name: "shop", api: true });
app.use(forceSSL());
app.use(paramLogger());
app.use(transaction(db));

app.resource("/widgets", new WidgetsResource());
