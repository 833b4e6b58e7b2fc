/**
 * The second half of `npm run build`: the package's run-time entries (`wisent`, `wisent/testing`,
 * each subpath in package.json "exports" but the CLI) bundled from tsc's output in dist/ into
 * dist/bundle/, sharing chunks, with the framework's pure-JavaScript dependencies (Kysely,
 * i18next, ...) inside. A process that imports wisent then loads a handful of files instead of
 * several hundred: about a third of the import time (bench/load/cold-start.mjs, "a process that
 * imports wisent"). Types stay tsc's (dist/*.d.ts).
 *
 * The CLI (bin/wisent.js) runs dist/bundle/cli/main.js: tsc's dist/cli/main.js with the command
 * table, the argument parsing and `wisent start` bundled in (a start loads 2 files instead of 23:
 * bench/load/cold-start-phases.mjs, the "cli" step), every other command left as tsc emitted it
 * in dist/cli/commands/ and loaded when it runs. `start --workers` forks dist/bundle/cli/worker.js,
 * bundled beside it.
 */
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { builtinsWithoutFacade } from "../dist/cli/build/builtins-without-facade.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

export const EXTERNAL = [
  "hono",
  "hono/*",
  "@hono/node-server",
  "@hono/node-server/*",
  "zod",
  "zod/*",
  "better-sqlite3",
  "pg",
  "mysql2",
  "fast-xml-parser",
  "ioredis",
  "nodemailer",
  "flydrive",
  "flydrive/*",
  "@fastify/busboy",
  "file-type",
  "@aws-sdk/*",
  "sharp",
  "esbuild",
  "tsx",
  "tsx/*",
  "eta",
  "youch",
  // CommonJS that require()s node:util, which an ES module bundle cannot do.
  "forwarded-parse",
];

/**
 * Each export whose file is in dist/bundle/, from tsc's file of the same name:
 * `{ "index": "dist/index.js", "testing/index": "dist/testing/index.js" }`.
 */
const entryPoints = {};
for (const target of Object.values(pkg.exports)) {
  const file = typeof target === "object" ? target.default : target;
  const match = /^\.\/dist\/bundle\/(.+)\.js$/.exec(file);
  if (match) entryPoints[match[1]] = `dist/${match[1]}.js`;
}

/**
 * The entries an app imports at run time (`wisent` and its subpaths but testing): each is a thin
 * file re-exporting its names from one module that holds them all, so that esbuild puts their
 * code in one shared chunk instead of a chunk per combination of entries (27 files for 7
 * entries, which an app then loads one by one; import time grew by a tenth).
 */
const SHARED = [
  "index",
  "auth/index",
  "entries/db",
  "entries/middleware",
  "entries/jsx",
  "entries/storage",
  "entries/config",
  "entries/jobs",
];

const options = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // package.json "sideEffects" marks every other module as free of them, so a bare import of one
  // (`import "./context-vars.js"`, there for its `declare module` types, empty in JavaScript) is
  // dropped: right, and not worth a warning. (src/package-exports.test.ts checks the list.)
  logOverride: { "ignored-bare-import": "silent" },
  legalComments: "none",
  // Node's built-ins read with process.getBuiltinModule, not through their ES facades (whose
  // lazy getters load undici, WebCrypto, ...): see dist/cli/build/builtins-without-facade.js.
  plugins: [builtinsWithoutFacade()],
};

// The names each shared entry exports, from a first build that writes nothing.
const probe = await build({
  ...options,
  entryPoints,
  outdir: "dist/bundle",
  write: false,
  metafile: true,
  logLevel: "silent",
});
const exportsOf = new Map();
for (const output of Object.values(probe.metafile.outputs)) {
  if (output.entryPoint) exportsOf.set(output.entryPoint, output.exports);
}

/** `wisent-shared:all` (every shared entry's names) and `wisent-entry:<name>` (one entry's). */
const sharedEntries = {
  name: "shared-entries",
  setup(b) {
    b.onResolve({ filter: /^wisent-(shared|entry):/ }, (args) => ({
      path: args.path,
      namespace: "wisent-entries",
    }));
    b.onLoad({ filter: /.*/, namespace: "wisent-entries" }, (args) => {
      if (args.path === "wisent-shared:all") {
        const lines = SHARED.map((name) => `export * from ${JSON.stringify(`./dist/${name}.js`)};`);
        return { contents: lines.join("\n"), resolveDir: root, loader: "js" };
      }
      const names = exportsOf.get(`dist/${args.path.slice("wisent-entry:".length)}.js`) ?? [];
      const contents = `export { ${names.join(", ")} } from "wisent-shared:all";`;
      return { contents, resolveDir: root, loader: "js" };
    });
  },
};

rmSync(`${root}/dist/bundle`, { recursive: true, force: true });
await build({
  ...options,
  entryPoints: Object.fromEntries(
    Object.entries(entryPoints).map(([name, file]) => [
      name,
      SHARED.includes(name) ? `wisent-entry:${name}` : file,
    ]),
  ),
  outdir: "dist/bundle",
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
  plugins: [sharedEntries, ...options.plugins],
});

/** The CLI's commands other than `start`: imported from tsc's output, where they lie. */
const commandsInPlace = {
  name: "commands-in-place",
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) =>
      args.path === "./commands/start.js"
        ? undefined
        : { path: `../../cli/${args.path.slice(2)}`, external: true },
    );
  },
};

await build({
  ...options,
  entryPoints: { main: "dist/cli/main.js", worker: "dist/cli/start/worker.js" },
  external: [],
  packages: "external",
  splitting: false,
  outdir: "dist/bundle/cli",
  sourcemap: true,
  logLevel: "warning",
  plugins: [commandsInPlace, ...options.plugins],
});
