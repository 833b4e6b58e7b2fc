/**
 * The full web chain against bare Hono with the same handler, same process, interleaved rounds:
 * a JSON show (no cookie, as an API client) and an HTML page in a layout with flash and CSRF meta
 * tags (with a session cookie, as a returning browser). Goal: the chain costs at most 35% of
 * throughput on the JSON route. Run: npm run build && node bench/http/run.mjs
 */
import { Hono } from "hono";
import { jsx } from "hono/jsx";
import {
  App,
  CsrfMeta,
  csrf,
  FlashMessages,
  flashMessages,
  forceSSL,
  i18n,
  layout,
  paramLogger,
  Resource,
  session,
} from "wisent";
import { interleave, ns } from "../lib/measure.mjs";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

const widget = {
  id: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
  title: "Hammer",
  description: null,
  created_at: "2024-01-02T03:04:05.123Z",
  updated_at: "2024-01-02T03:04:05.123Z",
};

const view = () => jsx("main", {}, jsx("h1", {}, widget.title), jsx("p", {}, "A fine hammer."));
const page = (children, head = [], body = []) =>
  jsx(
    "html",
    { lang: "en-US" },
    jsx("head", {}, jsx("title", {}, "Shop"), ...head),
    jsx("body", {}, ...body, children),
  );

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

function fullChain() {
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
  app.use(layout(({ children }) => page(children, [jsx(CsrfMeta, {})], [jsx(FlashMessages, {})])));
  app.resource("/widgets", new WidgetsResource());
  return app;
}

function bareHono() {
  const app = new Hono({ strict: false });
  app.get("/widgets/:widget_id", (c) => c.json(widget));
  app.get("/widgets", (c) => c.html(page(view())));
  return app;
}

const chain = fullChain();
const bare = bareHono();

// A returning browser: a session cookie that already holds the CSRF secret.
const first = await chain.fetch(
  new Request("http://localhost/widgets", { headers: { accept: "text/html" } }),
);
const cookie = first.headers.getSetCookie()[0].split(";")[0];
const firstPage = await first.text();
if (!firstPage.includes('name="csrf-token"'))
  throw new Error("the chain's HTML page lacks its CSRF meta tag");

const jsonRequest = () =>
  new Request("http://localhost/widgets/1", { headers: { accept: "application/json" } });
const htmlRequest = () =>
  new Request("http://localhost/widgets", {
    headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8", cookie },
  });

async function loop(app, makeRequest, iterations) {
  for (let i = 0; i < iterations; i++) {
    const res = await app.fetch(makeRequest());
    await res.text();
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
  }
}

const results = await interleave(
  {
    "json bare": (n) => loop(bare, jsonRequest, n),
    "json chain": (n) => loop(chain, jsonRequest, n),
    "html bare": (n) => loop(bare, htmlRequest, n),
    "html chain": (n) => loop(chain, htmlRequest, n),
  },
  { rounds: ROUNDS, iterations: ITERATIONS },
);

const row = (label, bareName, chainName) => {
  const b = results[bareName].median;
  const w = results[chainName].median;
  const ratio = b / w;
  return `| ${label} | ${ns(b)} | ${ns(w)} | ${(ratio * 100).toFixed(0)}% | ${((1 - ratio) * 100).toFixed(0)}% |`;
};

console.log(
  `node ${process.version}, ${ROUNDS} interleaved rounds x ${ITERATIONS} requests, medians per request\n`,
);
console.log("| route | bare Hono | full web chain | chain throughput vs bare | cost |");
console.log("|---|---|---|---|---|");
console.log(row("JSON show (no cookie)", "json bare", "json chain"));
console.log(row("HTML page in layout (session cookie)", "html bare", "html chain"));
const jsonCost = 1 - results["json bare"].median / results["json chain"].median;
console.log(`\nJSON goal (cost <= 35%): ${jsonCost <= 0.35 ? "met" : "NOT met"}`);
