/**
 * Route lookup and dispatch cost for 1, 10, 100 and 1000 resources: Wisent (its default
 * FirstMatchRouter, and on Hono's TrieRouter) against bare Hono with the same routes, same run.
 * Run: npm run build && node bench/routing/run.mjs
 */
import { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { App, Resource } from "wisent";
import { FirstMatchRouter } from "../../packages/wisent/dist/app/first-match-router.js";
import { interleave, ns } from "../lib/measure.mjs";

const SIZES = [1, 10, 100, 1000];
const REQUESTS = 1000;

function resourceClass(i) {
  const name = `Thing${i}sResource`;
  const cls = {
    [name]: class extends Resource {
      list(c) {
        return c.text("list");
      }
      show(c) {
        return c.text(c.req.param(`thing${i}_id`));
      }
      new(c) {
        return c.text("new");
      }
      create(c) {
        return c.text("create");
      }
      edit(c) {
        return c.text("edit");
      }
      update(c) {
        return c.text("update");
      }
      destroy(c) {
        return c.text("destroy");
      }
    },
  }[name];
  return cls;
}

function wisentApp(n, router) {
  const app = new App({ name: "bench", router });
  for (let i = 0; i < n; i++) app.resource(`/thing${i}s`, new (resourceClass(i))());
  return app;
}

function bareHono(n) {
  const app = new Hono({ strict: false });
  for (let i = 0; i < n; i++) {
    const p = `/thing${i}s`;
    const k = `thing${i}_id`;
    app.get(p, (c) => c.text("list"));
    app.post(p, (c) => c.text("create"));
    app.get(`${p}/new`, (c) => c.text("new"));
    app.get(`${p}/:${k}`, (c) => c.text(c.req.param(k)));
    app.put(`${p}/:${k}`, (c) => c.text("update"));
    app.delete(`${p}/:${k}`, (c) => c.text("destroy"));
    app.get(`${p}/:${k}/edit`, (c) => c.text("edit"));
  }
  return app;
}

function requests(n) {
  const shapes = ["", "/42", "/new", "/42/edit", "/7"];
  return Array.from({ length: REQUESTS }, (_, j) => {
    const i = (j * 7919) % n;
    return new Request(`http://localhost/thing${i}s${shapes[j % shapes.length]}`);
  });
}

function routerWith(n, router) {
  for (let i = 0; i < n; i++) {
    const p = `/thing${i}s`;
    const k = `thing${i}_id`;
    for (const [m, path] of [
      ["GET", p],
      ["POST", p],
      ["GET", `${p}/new`],
      ["GET", `${p}/:${k}`],
      ["PUT", `${p}/:${k}`],
      ["DELETE", `${p}/:${k}`],
      ["GET", `${p}/:${k}/edit`],
    ]) {
      router.add(m, path, path);
    }
  }
  return router;
}

function dispatcher(fetch, reqs) {
  return async (iterations) => {
    for (let j = 0; j < iterations; j++) {
      const res = await fetch(reqs[j % reqs.length]);
      if (res.status !== 200)
        throw new Error(`unexpected ${res.status} for ${reqs[j % reqs.length].url}`);
    }
  };
}

function lookup(router, paths) {
  return async (iterations) => {
    for (let j = 0; j < iterations; j++) {
      if (router.match("GET", paths[j % paths.length])[0].length === 0) throw new Error("no match");
    }
  };
}

const rows = [];
for (const n of SIZES) {
  const reqs = requests(n);
  const paths = reqs.map((r) => new URL(r.url).pathname);
  const hono = bareHono(n);
  const wisent = wisentApp(n);
  const wisentTrie = wisentApp(n, new TrieRouter());
  const dispatch = await interleave({
    hono: dispatcher((r) => hono.fetch(r), reqs),
    wisent: dispatcher(wisent.fetch, reqs),
    wisentTrie: dispatcher(wisentTrie.fetch, reqs),
  });
  const lookups = await interleave(
    {
      trie: lookup(routerWith(n, new TrieRouter()), paths),
      first: lookup(routerWith(n, new FirstMatchRouter()), paths),
    },
    { iterations: 100_000 },
  );
  rows.push({ n, dispatch, lookups });
  console.error(`done: ${n} resources`);
}

const at = (n) => rows.find((r) => r.n === n);
console.log(
  `Node ${process.version}, ${REQUESTS} request shapes (list/show/new/edit) spread over all resources; medians of 7 interleaved rounds.\n`,
);
console.log(
  "| resources | bare Hono dispatch | Wisent dispatch | Wisent / Hono | Wisent on TrieRouter | TrieRouter lookup | FirstMatchRouter lookup |",
);
console.log("|---:|---:|---:|---:|---:|---:|---:|");
for (const { n, dispatch, lookups } of rows) {
  console.log(
    `| ${n} | ${ns(dispatch.hono.median)} | ${ns(dispatch.wisent.median)} | ${(dispatch.wisent.median / dispatch.hono.median).toFixed(2)} | ${ns(dispatch.wisentTrie.median)} | ${ns(lookups.trie.median)} | ${ns(lookups.first.median)} |`,
  );
}
const scale = (pick) => (pick(at(1000)) / pick(at(10))).toFixed(2);
console.log(
  `\nCost at 1000 resources / cost at 10: Wisent dispatch ${scale((r) => r.dispatch.wisent.median)}x, bare Hono dispatch ${scale((r) => r.dispatch.hono.median)}x, FirstMatchRouter lookup ${scale((r) => r.lookups.first.median)}x, TrieRouter lookup ${scale((r) => r.lookups.trie.median)}x.`,
);
