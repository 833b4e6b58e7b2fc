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
import { mountFaults } from "./actions/faults.mjs";
import { HomeHandler } from "./actions/home.mjs";
import { ImagesResource } from "./actions/images.mjs";
import { WidgetsResource } from "./actions/widgets.mjs";
import { AppLayout } from "./templates/layout.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The app as `wisent new shop` + `wisent g r widget title description:nulls.Text` + the nested
 * image resource will make it (src/app.ts there): the spec's middleware order, GET /, the
 * resources, static files last.
 */
export function buildApp({ db, logger, faults = false }) {
  const app = new App({ name: "shop" });
  app.use(securityHeaders());
  app.use(forceSSL());
  app.use(paramLogger({ logger }));
  app.use(session());
  app.use(flashMessages());
  app.use(csrf());
  app.use(transaction(db));
  app.use(i18n({ directory: here("./locales") }));
  app.use(layout(AppLayout));

  app.get("/", HomeHandler);
  const widgets = app.resource("/widgets", new WidgetsResource());
  widgets.resource("/images", new ImagesResource());
  if (faults) mountFaults(app);

  app.serveFiles("/", here("../public"));
  return app;
}
