import type { Context, Handler, MiddlewareHandler, Next } from "hono";
import { HttpError } from "../base/http-error.js";
import { errorResponse } from "../http/error-response.js";
import { mediaTypeOf } from "../http/media-types.js";
import { markNoRoute, NoRouteError, noRouteAnswer } from "../http/no-route.js";
import { pathFormatOf, rememberPathFormat, splitPathFormat } from "../http/path-format.js";
import { nodeHeaders } from "../http/request-header.js";
import { Dispatch } from "../kernel/dispatch.js";
import { withUrl } from "../kernel/node-request.js";
import { isFormType, overrideMethod } from "../middleware/method-override/method-override.js";
import type { RouteRegistry } from "../routes/route-registry.js";
import { withUploadScope } from "../storage/upload-scope.js";
import { type AppCore, composeWithRuntime } from "./app-core.js";

/*
 * A request's story before its route runs, in the order it happens.
 *
 * On Node, two steps come first, below the App (they serve any fetch function):
 *   a. The server's edge rules (server/guarded-server.ts, server/request-guard.ts): what no
 *      route can accept is answered before any App code runs: a target over 8 KiB (414), a
 *      Host that is no host or comes twice, broken percent-encoding in the path, a transfer
 *      coding other than chunked (400), a declared body over the limit (413), a content coding
 *      (415); CONNECT and what Node's parser refuses are answered there too
 *      (server/client-errors.ts). With `Expect: 100-continue` the server asks
 *      {@link RequestPipeline.answersWithoutBody} (the end of this file) whether to send
 *      `100 Continue`.
 *   b. The listener (kernel/node-listener.ts): the Host and target become the URL (400 when no
 *      URL can be made of them), and a lazy Request (kernel/node-request.ts) is handed to
 *      `App.fetch`, which is {@link RequestPipeline.fetch}.
 *
 * Then the App's steps, here, top to bottom:
 *   1. the routes are checked, once after each change;
 *   2. a multipart body gets its upload scope;
 *   3. a `.json`/`.xml`/`.html` extension is stripped from the path;
 *   4. a form POST's `_method` becomes its method;
 *   5. the route is matched and called (kernel/dispatch.ts);
 *   6. a request no route matched is answered through the App's own middleware.
 */

/** Methods `new Request()` throws for (CONNECT never reaches an App: the server answers it, step a). */
const FETCH_FORBIDDEN_METHODS = new Set(["TRACE", "TRACK"]);

/** What {@link RequestPipeline} is made of: the App's parts and limits. */
export interface PipelineParts {
  readonly core: AppCore;
  /** The App's own middleware (every `app.use`), which a request no route matched runs. */
  readonly appMiddleware: readonly MiddlewareHandler[];
  /** Largest form body read for method override, in bytes. */
  readonly bodyLimit: number;
  /** Largest multipart body, in bytes (see `withUploadScope`). */
  readonly uploadLimit: number;
  /** The App's check of its routes (`App.checkRoutes`): throws when one can never match. */
  readonly checkRoutes: () => void;
}

/**
 * The App's steps before routing, as one chain (see the story above): `fetch` answers a
 * request, `answersWithoutBody` is the `100 Continue` decision, which has to agree with it.
 *
 * @example
 * const pipeline = new RequestPipeline({ core, appMiddleware, bodyLimit, uploadLimit, checkRoutes });
 * const res = await pipeline.fetch(new Request("http://localhost/widgets/1.json"));
 */
export class RequestPipeline {
  readonly #core: AppCore;
  readonly #registry: RouteRegistry;
  readonly #appMiddleware: readonly MiddlewareHandler[];
  readonly #bodyLimit: number;
  readonly #uploadLimit: number;
  readonly #checkRoutes: () => void;
  /** Routing and dispatch of a request (the kernel's). */
  readonly #dispatch: Dispatch;
  /** How many routes {@link checkRoutes} last found in order (-1: never checked). */
  #checkedRoutes = -1;
  /** The App's middleware around {@link throwNoRouteAnswer}, composed on the first such request. */
  #noRouteChain: Handler | undefined;

  constructor(parts: PipelineParts) {
    this.#core = parts.core;
    this.#registry = parts.core.registry;
    this.#appMiddleware = parts.appMiddleware;
    this.#bodyLimit = parts.bodyLimit;
    this.#uploadLimit = parts.uploadLimit;
    this.#checkRoutes = parts.checkRoutes;
    // Step 6 is Hono's not-found handler: the dispatch calls it when no route matched.
    this.#dispatch = new Dispatch(parts.core.hono, parts.core.uncaught, (c) => this.#noRoute(c));
  }

  /** Checks the routes (the App's check) and remembers how many passed. */
  checkRoutes(): void {
    this.#checkRoutes();
    this.#checkedRoutes = this.#registry.records.length;
  }

  /** The App's middleware changed (`app.use`): the no-route chain is composed again. */
  appMiddlewareChanged(): void {
    this.#noRouteChain = undefined;
  }

  /** Answers a request: steps 1 to 6. */
  readonly fetch = (
    request: Request,
    env?: unknown,
    executionCtx?: unknown,
  ): Response | Promise<Response> => {
    // 1. Routes declared since the last check: one that can never match throws here (as at
    //    `listen()`), rather than answering wrong.
    if (this.#checkedRoutes !== this.#registry.records.length) this.checkRoutes();
    // 2. A multipart body's files stream to temporary files, deleted once the answer is made.
    if (carriesMultipart(request, env)) {
      return withUploadScope(this.#uploadLimit, () => this.#route(request, env, executionCtx));
    }
    return this.#route(request, env, executionCtx);
  };

  #route(request: Request, env: unknown, executionCtx: unknown): Response | Promise<Response> {
    // 3. `/widgets/1.json` is routed as `/widgets/1`: one route answers every format.
    const req = stripPathFormat(request);
    // 4. A form's `_method` is in its body: read before routing, since routing matches on it.
    if (req.method === "POST" && mayOverrideMethod(env)) {
      return this.#overrideThenDispatch(req, env, executionCtx);
    }
    // 5. The route is matched and called; no route: step 6, through Hono's not-found handler.
    return this.#dispatch.fetch(req, env, executionCtx);
  }

  /** Step 4 for a form POST: its body read for `_method`, then step 5 with the method it names. */
  async #overrideThenDispatch(
    request: Request,
    env: unknown,
    executionCtx: unknown,
  ): Promise<Response> {
    let req: Request;
    try {
      req = await overrideMethod(request, { bodyLimit: this.#bodyLimit });
    } catch (err) {
      // Nothing was routed yet (a bad `_method`, a form over the body limit): answered as a
      // request no route matched, in the client's format, through the App's middleware.
      const c = this.#dispatch.context(request, env);
      return this.#answerWithoutRoute(c, err instanceof Error ? err : new Error(String(err)));
    }
    // The overridden request is a new one: it keeps the format step 3 stripped.
    const format = pathFormatOf(request);
    if (format && req !== request) rememberPathFormat(req, format);
    return this.#dispatch.fetch(req, env, executionCtx);
  }

  /** 6. No route matched: the 404, 405 or 406 (see {@link routingError}). */
  #noRoute(c: Context): Response | Promise<Response> {
    // Inside a route's chain (the static catch-all found no file, or a handler called next()):
    // the route's middleware is already around this throw and renders it.
    if (c.get("wisent")) throw routingError(c, this.#registry);
    return this.#answerWithoutRoute(c, routingError(c, this.#registry));
  }

  /**
   * Answers a request no route matched (or one refused at step 4) with `answer`, through the
   * App's own middleware, so every 404 and 405 carries the security headers and a request id
   * and is logged, as a matched route's errors are. Why the whole app stack and not a chosen
   * part: whether a middleware is "safe" for such requests is its own business, so each one can
   * ask `noRouteMatched(c)`; `csrf()` does, and skips its checks (there is no action to forge,
   * and Rails answers an unknown POST with a 404, not a 403). The session is written back only
   * when something changed it, which nothing here does: no Set-Cookie, as for a GET that falls
   * through the static catch-all to its 404. Group and resource middleware stay out: the request
   * reached none of their routes.
   */
  #answerWithoutRoute(c: Context, answer: Error): Response | Promise<Response> {
    markNoRoute(c, answer);
    this.#noRouteChain ??= composeWithRuntime(
      this.#core.runtime,
      [...this.#appMiddleware],
      throwNoRouteAnswer,
    );
    let res: ReturnType<Handler>;
    try {
      res = this.#noRouteChain(c, NOTHING_BELOW);
    } catch (err) {
      // Only without any app middleware (nothing catches the throw) or for a non-Error throw.
      return errorResponse(err, c);
    }
    if (res instanceof Promise) {
      return res.then(
        (resolved) => resolved ?? c.res,
        (err: unknown) => errorResponse(err, c),
      );
    }
    return res ?? c.res;
  }

  /**
   * The `100 Continue` decision (step a's, asked ahead of the body): whether a request's answer
   * is known from its method and target alone, by steps 3 to 5: no route matches them, and no
   * form body could change the method. `Expect: 100-continue` then gets that answer rather than
   * `100 Continue`.
   */
  answersWithoutBody(method: string, target: string, contentType: string | undefined): boolean {
    // Step 4 could make it another method.
    if (method === "POST" && contentType !== undefined && isFormType(contentType)) return false;
    if (target.charCodeAt(0) !== 47) return false;
    const queryAt = target.indexOf("?");
    // Step 3.
    const { path } = splitPathFormat(queryAt === -1 ? target : target.slice(0, queryAt));
    // Step 5's match.
    const hono = this.#core.hono;
    const routed = hono.getPath({ url: `http://host${path}` } as Request, {});
    return hono.router.match(method === "HEAD" ? "GET" : method, routed)[0].length === 0;
  }
}

/**
 * Step 2's test: a body `multipart/form-data`, on the methods a form or an upload client sends
 * (a DELETE too: the CSRF check reads its form). Reading another method's headers here made an
 * unknown method's request (FOO with a body) lose its answer (e2e/reliability/fuzz).
 */
function carriesMultipart(request: Request, env: unknown): boolean {
  const method = request.method;
  if (method !== "POST" && method !== "PUT" && method !== "PATCH" && method !== "DELETE") {
    return false;
  }
  // On Node, from the headers Node parsed: no Fetch Headers made for a DELETE without a body.
  const node = nodeHeaders(env);
  const type = node ? node["content-type"] : request.headers.get("content-type");
  return typeof type === "string" && mediaTypeOf(type) === "multipart/form-data";
}

/**
 * Step 3: the request under its path without a format extension, the format remembered for
 * negotiation (see path-format.ts); the request itself when its path has none.
 */
function stripPathFormat(request: Request): Request {
  const url = request.url;
  const queryAt = url.indexOf("?");
  const pathEnd = queryAt === -1 ? url.length : queryAt;
  // A dot 5 or 4 characters from the path's end (`.json`, `.html`, `.xml`), else nothing to do.
  if (url.charCodeAt(pathEnd - 5) !== 46 && url.charCodeAt(pathEnd - 4) !== 46) return request;
  // The Fetch API refuses to make a Request with TRACE or TRACK (the Node listener's requests
  // carry them): such a request keeps its path, and routes to its deliberate 404/405.
  if (FETCH_FORBIDDEN_METHODS.has(request.method)) return request;
  const { path, format } = splitPathFormat(url.slice(0, pathEnd));
  if (!format) return request;
  const strippedUrl = path + url.slice(pathEnd);
  const stripped = withUrl(request, strippedUrl) ?? new Request(strippedUrl, request);
  rememberPathFormat(stripped, format);
  return stripped;
}

/**
 * Step 4's test: whether a POST may carry a form's `_method`. On Node the Content-Type is read
 * from the headers Node parsed (a JSON POST then dispatches at once, without building the
 * Request's Headers).
 */
function mayOverrideMethod(env: unknown): boolean {
  const headers = nodeHeaders(env);
  if (!headers) return true;
  const contentType = headers["content-type"];
  return typeof contentType === "string" && isFormType(contentType);
}

/**
 * Step 6's answer: the 404, or the 405 with `Allow` when the path exists under other methods
 * (Buffalo's texts), or for OPTIONS the 204 with `Allow`.
 */
function routingError(c: Context, registry: RouteRegistry): HttpError {
  const path = c.req.path.endsWith("/") ? c.req.path : `${c.req.path}/`;
  const allowed = registry.allowedMethods(c.req.path);
  if (allowed.length > 0) {
    const allow = [...allowed, "OPTIONS"].join(", ");
    // OPTIONS on a route's path: 204 with the methods it answers (no route declares OPTIONS).
    if (c.req.method === "OPTIONS") return new HttpError(204, "", { headers: { Allow: allow } });
    if (!allowed.includes(c.req.method)) {
      return new HttpError(405, `method not found: ${c.req.method} ${path}`, {
        headers: { Allow: allow },
      });
    }
  }
  const unknown = unknownFormat(c.req.path, c.req.method, registry);
  if (unknown) return unknown;
  return new NoRouteError(`path not found: ${c.req.method} ${path}`);
}

/** A last segment's extension that is none of ours: `/widgets.txt` -> `txt` (not `/.env`). */
const OTHER_EXTENSION = /\/[^/.]+(\.([A-Za-z0-9]+))$/;

/**
 * `/widgets.txt`, where `/widgets` is a route: a format this app never answers, so a 406 naming
 * the ones it does (as Rails answers an unknown format), not a 404 that says the path is wrong.
 */
function unknownFormat(
  path: string,
  method: string,
  registry: RouteRegistry,
): HttpError | undefined {
  const match = OTHER_EXTENSION.exec(path);
  if (!match) return undefined;
  const bare = path.slice(0, path.length - match[1]!.length);
  if (!registry.allowedMethods(bare).includes(method)) return undefined;
  return new HttpError(406, `unknown format "${match[2]}": use html, json or xml`);
}

/** The innermost step of the no-route chain: the request's answer, as an error to render. */
const throwNoRouteAnswer: Handler = (c) => {
  throw noRouteAnswer(c) ?? new HttpError(404, "path not found");
};

/** Nothing runs below {@link throwNoRouteAnswer}. */
const NOTHING_BELOW: Next = () => Promise.resolve();
