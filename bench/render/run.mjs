/**
 * Render-only: the shop's own templates (examples/shop/src/templates: layout, widgets index with 20
 * rows and the paginator, show, and the new-widget form with errors) rendered as `c.respond`
 * renders them, by hono/jsx as Wisent did before wisent/jsx (the framework's components, page
 * context and `resolveCallback` from the commit before wisent/jsx, `git archive`d) and by
 * wisent/jsx (this checkout's build). esbuild compiles the same template files once per runtime
 * (`jsxImportSource`); every variant must render the same bytes before anything is timed.
 * Interleaved rounds, wall and CPU time a page, medians and each round's ratio.
 *
 *   npm run build && node bench/render/run.mjs
 * Environment: BENCH_ROUNDS (9), BENCH_BEFORE (a commit; default: the parent of the commit that
 * added wisent/jsx).
 */
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const shop = join(repo, "examples/shop/src");
const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const git = (args) => execSync(`git ${args}`, { cwd: repo, encoding: "utf8" }).trim();
const before =
  process.env.BENCH_BEFORE ??
  `${git("log --diff-filter=A --format=%H -- packages/wisent/src/jsx/jsx-runtime.ts").split("\n").at(-1)}^`;

// Inside the repository, so the bundles' external imports (hono, wisent) resolve from its node_modules.
const tmp = mkdtempSync(join(repo, "bench/render/tmp-"));
try {
  const old = join(tmp, "old");
  mkdirSync(old);
  execSync(`git archive ${before} packages/wisent/src | tar -x -C ${old}`, { cwd: repo });
  const oldSrc = join(old, "packages/wisent/src");

  // The one entry both runtimes compile: the shop's templates and views as its actions call them.
  const entry = join(tmp, "entry.jsx");
  writeFileSync(
    entry,
    `import { Layout } from ${JSON.stringify(`${shop}/templates/layout.tsx`)};
import { Index } from ${JSON.stringify(`${shop}/templates/widgets/index.tsx`)};
import { Show } from ${JSON.stringify(`${shop}/templates/widgets/show.tsx`)};
import { New } from ${JSON.stringify(`${shop}/templates/widgets/new.tsx`)};
export { renderPage } from "render-page";
export { Layout };
export const views = {
  index: (d) => () => <Index widgets={d.widgets} paginator={d.paginator} />,
  show: (d) => () => <Show widget={d.widget} />,
  form: (d) => () => <New values={d.values} errors={d.errors} />,
};
`,
  );
  // How each runtime's c.respond turned a view into the page's HTML.
  const honoRender = join(tmp, "render-hono.jsx");
  writeFileSync(
    honoRender,
    `import { HtmlEscapedCallbackPhase, resolveCallback } from "hono/utils/html";
import { PageContext } from ${JSON.stringify(`${oldSrc}/http/page.ts`)};
export function renderPage(Layout, page, view) {
  const tree = <PageContext.Provider value={page}><Layout page={page}>{view()}</Layout></PageContext.Provider>;
  return resolveCallback(tree, HtmlEscapedCallbackPhase.Stringify, false, {}).then(String);
}
`,
  );
  const honoWisent = join(tmp, "wisent-hono.mjs");
  writeFileSync(
    honoWisent,
    `export { CsrfField, CsrfMeta, FlashMessages } from ${JSON.stringify(`${oldSrc}/http/components.tsx`)};
export { usePage } from ${JSON.stringify(`${oldSrc}/http/page.ts`)};
export { Paginator } from ${JSON.stringify(`${oldSrc}/data/paginator.tsx`)};
export { raw as rawHtml } from "hono/html";
`,
  );
  const wisentRender = join(tmp, "render-wisent.mjs");
  writeFileSync(
    wisentRender,
    `import { renderToString, withPage } from "wisent/jsx";
export function renderPage(Layout, page, view) {
  return withPage(page, () => renderToString(Layout({ page, children: view() })));
}
`,
  );
  const bundle = async (name, importSource, aliases) => {
    const outfile = join(tmp, `${name}.mjs`);
    // Instead of the shop's tsconfig.json, which names one runtime.
    const tsconfig = join(tmp, `${name}.tsconfig.json`);
    writeFileSync(
      tsconfig,
      JSON.stringify({ compilerOptions: { jsx: "react-jsx", jsxImportSource: importSource } }),
    );
    await build({
      tsconfig,
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      jsx: "automatic",
      jsxImportSource: importSource,
      external: ["hono", "hono/*", "wisent", "wisent/*", "zod", "kysely"],
      logLevel: "error",
      plugins: [
        {
          name: "aliases",
          setup(b) {
            b.onResolve({ filter: /^(wisent|render-page)$/ }, (args) =>
              aliases[args.path] ? { path: aliases[args.path] } : undefined,
            );
          },
        },
      ],
    });
    return import(outfile);
  };
  const variants = [
    {
      name: "hono/jsx (before)",
      mod: await bundle("hono", "hono/jsx", { wisent: honoWisent, "render-page": honoRender }),
    },
    {
      name: "wisent/jsx (after)",
      mod: await bundle("wisent", "wisent/jsx", { "render-page": wisentRender }),
    },
  ];

  // The data: what the shop's actions pass, as its seeded rows look.
  const widgets = Array.from({ length: 20 }, (_, i) => ({
    id: `01a21108-f9d5-76f3-bf00-${String(i).padStart(12, "0")}`,
    title: `Widget ${i + 21}`,
    description: i % 3 === 0 ? null : `Description of widget ${i + 21}, a fine thing.`,
  }));
  const paginator = {
    page: 2,
    per_page: 20,
    offset: 20,
    total_entries_size: 10_000,
    current_entries_size: 20,
    total_pages: 500,
  };
  const errors = {
    errors: { title: ["Title can't be blank"] },
    any: () => true,
    get: (field) => errors.errors[field] ?? [],
  };
  const data = {
    index: { widgets, paginator },
    show: { widget: widgets[1] },
    form: { values: { title: "", description: `<b>"bold"</b> & more` }, errors },
  };
  const messages = JSON.parse(readFileSync(join(shop, "locales/en-US.json"), "utf8"));
  const t = (key) => key.split(".").reduce((m, k) => m?.[k], messages) ?? key;
  const paths = {
    rootPath: () => "/",
    widgetsPath: () => "/widgets",
    newWidgetsPath: () => "/widgets/new",
    widgetPath: (p) => `/widgets/${p.widget_id}`,
    editWidgetPath: (p) => `/widgets/${p.widget_id}/edit`,
    widgetImagesPath: (p) => `/widgets/${p.widget_id}/images`,
  };
  const c = {
    get: (key) => (key === "wisent" ? { paths } : undefined),
    req: { url: "http://localhost/widgets?page=2" },
  };
  const page = {
    flash: {},
    csrfToken: "x".repeat(86),
    csrfParam: "authenticity_token",
    lang: "en-US",
    t,
    c,
  };
  const render = (variant, name) =>
    variant.mod.renderPage(variant.mod.Layout, page, variant.mod.views[name](data[name]));

  // Same bytes from every runtime, before any timing.
  for (const name of Object.keys(data)) {
    const pages = await Promise.all(variants.map((v) => render(v, name)));
    if (pages.some((p) => p !== pages[0])) {
      let at = 0;
      while (pages[0][at] === pages[1][at]) at++;
      throw new Error(
        `${name}: the runtimes render different pages at ${at}:\n  ${pages.map((p) => p.slice(at - 40, at + 60)).join("\n  ")}`,
      );
    }
    console.log(`${name}: ${pages[0].length} characters, the same from both runtimes`);
  }

  const counts = { index: 400, show: 2000, form: 2000 };
  const timeOne = async (variant, name) => {
    const n = counts[name];
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await render(variant, name);
    const wall = Number(process.hrtime.bigint() - t0) / 1e3 / n;
    const cpu1 = process.cpuUsage(cpu0);
    return { wall, cpu: (cpu1.user + cpu1.system) / n };
  };
  const results = {};
  for (let round = -1; round < rounds; round++) {
    for (const name of Object.keys(data)) {
      for (const variant of variants) {
        const r = await timeOne(variant, name);
        if (round < 0) continue; // warm-up
        results[name] ??= {};
        results[name][variant.name] ??= [];
        results[name][variant.name].push(r);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const range = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
  console.log(
    `\n${new Date().toISOString()}, node ${process.version}, before = ${git(`rev-parse --short ${before}`)}, ${rounds} interleaved rounds\n`,
  );
  console.log(
    "| page | runtime | wall a page (median) | CPU a page (median) | before / after (wall, each round) | before / after (CPU) |",
  );
  console.log("|---|---|---:|---:|---:|---:|");
  for (const name of Object.keys(data)) {
    const [a, b] = variants.map((v) => results[name][v.name]);
    for (const variant of variants) {
      const rs = results[name][variant.name];
      const ratio = (key) => {
        if (rs !== b) return "";
        const per = a.map((r, i) => r[key] / b[i][key]);
        return `${median(per).toFixed(2)}x (${range(per)})`;
      };
      console.log(
        `| ${name} | ${variant.name} | ${median(rs.map((r) => r.wall)).toFixed(2)} us | ${median(rs.map((r) => r.cpu)).toFixed(2)} us | ${ratio("wall")} | ${ratio("cpu")} |`,
      );
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
