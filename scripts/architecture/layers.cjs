/**
 * Layers of packages/wisent/src, lowest first: a file may import its own layer and the layers
 * below it, never above (.dependency-cruiser.cjs turns this into rules; ARCHITECTURE.md explains
 * it). A layer is a list of folders, plus a few files that live in a higher folder but are
 * imported from below (PINNED, each with why; moving them waits until the files importing them,
 * app.ts among them, are not being rewritten elsewhere).
 */
const SRC = "^packages/wisent/src/";

/** Files whose layer is not their folder's: [file under src, layer name, why]. */
const PINNED = [
  ["http/http-error.ts", "foundation", "the error class every layer throws, imports nothing"],
  ["app/route-registry.ts", "routes", "the route records (routes data); openapi reads them"],
  ["app/environment.ts", "http-data", "NODE_ENV, read by the logger, the database, middleware"],
  ["app/path-format.ts", "http-data", "the `.json` suffix of a path, read by format negotiation"],
  ["app/no-route.ts", "http-data", "the 404 every middleware and error answer share"],
  ["app/health-check.ts", "http-data", "the health route, which logging middleware skip"],
];

/** Lowest first: [name, folders under src]. src/index.ts and src/entries/ (the package's entry points) are above all. */
const LAYERS = [
  ["foundation", ["base", "config", "crypto", "naming", "jsx", "storage"]],
  // The request lifecycle Wisent owns (listener, lazy request, plain response and its headers,
  // compose, dispatch, Context extensions) and the only code that touches Hono's internals.
  ["kernel", ["kernel"]],
  ["resources", ["resources"]],
  ["routes", ["routes"]],
  ["http-data", ["http", "data"]],
  ["client-openapi", ["client", "openapi"]],
  ["middleware", ["middleware"]],
  ["app", ["app", "auth"]],
  ["testing", ["testing"]],
  ["cli", ["cli"]],
  ["barrel", ["entries"]],
];

module.exports = { LAYERS, PINNED, SRC };
