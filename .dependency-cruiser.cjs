/**
 * The import rules `npm run lint` checks (dependency-cruiser), written out in ARCHITECTURE.md.
 * scripts/architecture/layers.test.ts proves them on a fixture tree that breaks each one.
 * The layers themselves are in scripts/architecture/layers.cjs.
 */
const { LAYERS, PINNED, SRC } = require("./scripts/architecture/layers.cjs");

const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const any = (patterns) => `(${patterns.join("|")})`;
const fileRegex = (file) => `${SRC}${escapeRegex(file)}$`;
const layerIndex = (name) => LAYERS.findIndex(([n]) => n === name);
/** Test code sits above every layer: it may import anything but cycles and app copies. */
const TEST_CODE = "(\\.test\\.tsx?$|/test-support/|/fixtures/)";

/** What belongs to layer `i`: its folders and the files pinned to it (the barrel: src/index.ts). */
function layerPatterns(i) {
  const [name, folders] = LAYERS[i];
  const pinned = PINNED.filter(([, layer]) => layer === name).map(([file]) => fileRegex(file));
  return [
    ...folders.map((folder) => `${SRC}${folder}/`),
    ...pinned,
    ...(name === "barrel" ? [fileRegex("index.ts")] : []),
  ];
}

const layerRules = LAYERS.slice(0, -1).map(([name], i) => ({
  name: `layer-${name}`,
  severity: "error",
  comment: `${name} imports only its own layer and those below it (ARCHITECTURE.md, "Layers")`,
  from: {
    path: any(layerPatterns(i)),
    pathNot: [
      TEST_CODE,
      ...PINNED.filter(([, layer]) => layer !== name).map(([f]) => fileRegex(f)),
    ],
  },
  to: {
    path: any(LAYERS.slice(i + 1).flatMap((_, above) => layerPatterns(i + 1 + above))),
    pathNot: [
      TEST_CODE,
      ...PINNED.filter(([, layer]) => layerIndex(layer) <= i).map(([f]) => fileRegex(f)),
    ],
  },
}));

/**
 * The one folder allowed to reach into a library's internals: the kernel (its Hono-internal
 * reads live in kernel/hono-internals.ts, with a test that fails on upgrade).
 */
const LIBRARY_INTERNALS_FILE = `${SRC}kernel/`;
/** A package name with a subpath: `hono/dist/cjs/hono-base.js`, `@scope/pkg/lib/x.js`. */
const BARE_SUBPATH = "^@[^/]+/[^/]+/|^[^./@][^/]*/";
/** Wisent's own dist/ (`wisent`, or by path): `npm run build` may not have run before lint. */
const OWN_BUILD = "^wisent(/|$)|(^|/)packages/wisent/dist/";

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      severity: "error",
      comment: "no import cycles, type-only imports included (examples/ is generated code)",
      from: { pathNot: "^examples/" },
      to: { circular: true },
    },
    {
      name: "no-test-code-in-src",
      severity: "error",
      comment: "the framework's own code never imports tests, test-support or fixtures",
      from: { path: SRC, pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: "no-app-copies",
      severity: "error",
      comment:
        "tests and benches run the generated example app (examples/shop), never a hand-written " +
        "copy of it: nothing imports an app's actions, models or templates from anywhere else " +
        "(the generator's golden fixtures are read as text, never imported)",
      from: {},
      to: {
        path: "/src/(actions|models|templates)/",
        pathNot: "^examples/shop/",
      },
    },
    {
      name: "no-library-internals",
      severity: "error",
      comment:
        "libraries through their public entry points only: no path into node_modules, except " +
        "in the kernel (src/kernel/)",
      from: { pathNot: LIBRARY_INTERNALS_FILE },
      to: {
        path: "(^|/)node_modules/",
        dependencyTypesNot: [
          "npm",
          "npm-dev",
          "npm-optional",
          "npm-peer",
          "npm-bundled",
          "npm-no-pkg",
          "npm-unknown",
        ],
      },
    },
    {
      name: "no-library-deep-imports",
      severity: "error",
      comment:
        "no deep import a package's exports map refuses (hono/dist/..., kysely/dist/...), " +
        "except in the kernel (src/kernel/)",
      from: { pathNot: LIBRARY_INTERNALS_FILE },
      to: { couldNotResolve: true, path: BARE_SUBPATH, pathNot: OWN_BUILD },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "every import resolves",
      from: {},
      to: { couldNotResolve: true, pathNot: [BARE_SUBPATH, OWN_BUILD] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // The built package (reached through "wisent" and by the benches) is not source; the
    // fixtures break every rule on purpose (scripts/architecture/layers.test.ts cruises them).
    // bench/load/apps/generated/ is made by the CLI at every load bench run, bench/results/ holds
    // builds and app copies laid out for A/B runs (both git-ignored). bench/load/peers/<name>/ folders
    // are other frameworks' apps with their own package.json, installed only by the bench.
    exclude: {
      path: "^packages/wisent/dist/|^scripts/architecture/fixtures/|^bench/load/apps/generated/|^bench/results/|^bench/load/peers/[^/]+/",
    },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "types", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts", ".json"],
    },
  },
};
