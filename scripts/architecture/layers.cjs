/**
 * Layers of packages/wisent/src, lowest first: a file may import its own layer and the layers
 * below it, never above (.dependency-cruiser.cjs turns this into rules; ARCHITECTURE.md explains
 * it). A layer is a list of folders; PINNED can place one file in another layer than its folder's,
 * with why, and is kept empty: a file that belongs lower moves to a folder of that layer.
 */
const SRC = "^packages/wisent/src/";

/** Files whose layer is not their folder's: [file under src, layer name, why]. Empty: every file lives in its layer's folder. */
const PINNED = [];

/** Lowest first: [name, folders under src]. src/index.ts and src/entries/ (the package's entry points) are above all. */
const LAYERS = [
  ["foundation", ["base", "config", "crypto", "naming", "jsx", "storage"]],
  // The request lifecycle Wisent owns (listener, lazy request, plain response and its headers,
  // compose, dispatch, Context extensions) and the only code that touches Hono's internals.
  ["kernel", ["kernel"]],
  // The Node edge: the server, its guards before any route runs, listening and draining.
  ["server", ["server"]],
  ["resources", ["resources"]],
  ["routes", ["routes"]],
  // What a field's value must be, shared by request binding (http/) and models (data/).
  ["validation", ["validation"]],
  // Requests and responses; they know no database (data/ codes a driver's failure itself).
  ["http", ["http"]],
  ["data", ["data"]],
  ["client-openapi", ["client", "openapi"]],
  // Background jobs: the jobs table on the app's database, its workers and recurring tasks.
  ["jobs", ["jobs"]],
  // Mail: declared mails, the mailer, and their delivery as a job.
  ["mail", ["mail"]],
  ["middleware", ["middleware"]],
  // Live pages: signed streams, Server-Sent Events, broadcasts after commit and their transports.
  ["live", ["live"]],
  ["app", ["app"]],
  // Authentication hands the App its route guards (app/route-guards.ts): the App knows none of it.
  ["auth", ["auth"]],
  ["testing", ["testing"]],
  ["cli", ["cli"]],
  ["barrel", ["entries"]],
];

module.exports = { LAYERS, PINNED, SRC };
