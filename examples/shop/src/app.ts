import { fileURLToPath } from "node:url";
import {
  App,
  csrf,
  flashMessages,
  forceSSL,
  i18n,
  layout,
  paramLogger,
  securityHeaders,
  session,
  transaction,
} from "wisent";
import { HomeHandler } from "./actions/home.js";
import { ImagesResource } from "./actions/images.js";
import { WidgetsResource } from "./actions/widgets.js";
import { db } from "./db.js";
import { Layout } from "./templates/layout.js";
// wisent:imports (generated resources' imports go above this line)

/** The shop application: middleware in order, then routes in match order (first match wins). */
export const app = new App({ name: "shop" });

app.use(securityHeaders({ contentSecurityPolicy: { styleSrc: ["'self'"] } }));
app.use(forceSSL());
app.use(paramLogger());
app.use(session());
app.use(flashMessages());
app.use(csrf());
app.use(transaction(db));
app.use(i18n({ directory: fileURLToPath(new URL("./locales/", import.meta.url)) }));
app.use(layout(Layout));

app.get("/", HomeHandler);
app.openapi("/openapi.json"); // the OpenAPI 3.1 document (`wisent openapi` prints it)
export const widgets = app.resource("/widgets", new WidgetsResource());
export const widgetImages = widgets.resource("/images", new ImagesResource());
// wisent:resources (generated resources are declared above this line)
app.serveFiles("/", "public");
