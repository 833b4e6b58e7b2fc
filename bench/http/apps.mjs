/**
 * The two apps bench/http compares, shared by run.mjs and profile.mjs: the full web chain and
 * bare Hono with the same handler bodies, plus the requests each route is measured with.
 */
import { Hono } from "hono";
import { jsx } from "hono/jsx";
import { App, Resource } from "wisent";
import { CsrfMeta, FlashMessages, layout } from "wisent/jsx";
import { h } from "wisent/jsx/jsx-runtime";
import { csrf, flashMessages, forceSSL, i18n, paramLogger, session } from "wisent/middleware";
import { widget } from "../lib/widget-fixture.mjs";

// The same markup from each app's renderer: wisent/jsx's `h` for the chain, hono/jsx for bare Hono.
const viewWith = (f) => () =>
  f("main", {}, f("h1", {}, widget.title), f("p", {}, "A fine hammer."));
const pageWith =
  (f) =>
  (children, head = [], body = []) =>
    f(
      "html",
      { lang: "en-US" },
      f("head", {}, f("title", {}, "Shop"), ...head),
      f("body", {}, ...body, children),
    );
const view = viewWith(h);
const page = pageWith(h);

// Serialises each line as the default logger would, without the terminal I/O that would dominate.
const sink = {
  info: (e) => JSON.stringify(e),
  warn: (e) => JSON.stringify(e),
  error: (e) => JSON.stringify(e),
};

class WidgetsResource extends Resource {
  list(c) {
    return c.respond(200, { html: view, json: [widget] });
  }
  show(c) {
    return c.respond(200, { html: view, json: widget, xml: widget });
  }
}

/** App + force-SSL (off) + param logger + session + flash + CSRF + i18n + layout. */
export function fullChain() {
  const app = new App({ name: "shop", env: "development" });
  app.use(forceSSL({ enabled: false }));
  app.use(paramLogger({ logger: sink }));
  app.use(session({ secret: "bench-secret-".padEnd(40, "x"), env: "development" }));
  app.use(flashMessages());
  app.use(csrf());
  app.use(
    i18n({
      messages: { "en-US": { "widget.created.success": "Widget was successfully created." } },
    }),
  );
  app.use(layout(({ children }) => page(children, [h(CsrfMeta, {})], [h(FlashMessages, {})])));
  app.resource("/widgets", new WidgetsResource());
  return app;
}

/** Bare Hono answering the same two routes with the same bodies. */
export function bareHono() {
  const app = new Hono({ strict: false });
  app.get("/widgets/:widget_id", (c) => c.json(widget));
  app.get("/widgets", (c) => c.html(pageWith(jsx)(viewWith(jsx)())));
  return app;
}

/**
 * Request factories for a returning browser (a session cookie that already holds the CSRF
 * secret, taken from the chain's first page) and an API client.
 */
export async function requests(chain) {
  const first = await chain.fetch(
    new Request("http://localhost/widgets", { headers: { accept: "text/html" } }),
  );
  const cookie = first.headers.getSetCookie()[0].split(";")[0];
  const firstPage = await first.text();
  if (!firstPage.includes('name="csrf-token"'))
    throw new Error("the chain's HTML page lacks its CSRF meta tag");
  return {
    json: () =>
      new Request("http://localhost/widgets/1", { headers: { accept: "application/json" } }),
    html: () =>
      new Request("http://localhost/widgets", {
        headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8", cookie },
      }),
  };
}

/** Answers `iterations` requests, reading each body; throws on a status other than 200. */
export async function loop(app, makeRequest, iterations) {
  for (let i = 0; i < iterations; i++) {
    const res = await app.fetch(makeRequest());
    await res.text();
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
  }
}
