import { fileURLToPath } from "node:url";
import {
  App,
  csrf,
  flashMessages,
  forceSSL,
  i18n,
  layout,
  paramLogger,
  session,
  transaction,
} from "wisent";
import { HomeHandler } from "./actions/home.mjs";
import { WidgetsResource } from "./actions/widgets.mjs";
import { db } from "./db.mjs";
import { AppLayout } from "./templates/application.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The web app as `wisent new shop` + `wisent g r widget title description:nulls.Text` make it
 * (src/app.ts there): the spec's middleware order, GET /, the resource, static files last.
 */
export const app = new App({ name: "shop" });
app.use(forceSSL());
app.use(paramLogger());
app.use(session());
app.use(flashMessages());
app.use(csrf());
app.use(transaction(db));
app.use(i18n({ directory: here("./locales") }));
app.use(layout(AppLayout));

app.get("/", HomeHandler);
app.resource("/widgets", new WidgetsResource());

app.serveFiles("/", here("../public"));
