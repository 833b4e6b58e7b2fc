import type { Context, ErrorHandler, Hono, NotFoundHandler } from "hono";
import { type Below, isSettledRoute } from "./compose.js";
import { newContext, watchNotFound } from "./hono-internals.js";
import { headResponse } from "./plain-response.js";

/**
 * Hono's dispatch, with one step less for the routes the App composed: such a route answers
 * `c.res` itself and takes what escapes it to Hono's error handler (see `isSettledRoute`), so
 * Hono's `.then(...).catch(...)` around its promise (two promises and two microtask turns a
 * request) would change nothing and is left out. The Context is made as Hono makes it; HEAD
 * runs the GET route and keeps its `Content-Length` (see `headResponse`); a path no route
 * matched, and routes with Hono middleware of their own go through Hono.
 *
 * @example
 * const dispatch = new Dispatch(hono, uncaught);
 * hono.notFound(myNotFound); // the dispatch follows it
 * const res = await dispatch.fetch(request, env, undefined);
 */
export class Dispatch {
  readonly #hono: Hono;
  /** Hono's error handler, for what escapes a route called here. */
  readonly #uncaught: ErrorHandler;
  /** Hono's not-found handler as it is now (`hono.notFound` is watched to know it). */
  #notFoundHandler: NotFoundHandler;
  /** What runs below a route's handler that calls `next()`, as Hono's own `next` there. */
  readonly #below: Below;

  constructor(hono: Hono, uncaught: ErrorHandler, notFoundHandler: NotFoundHandler) {
    this.#hono = hono;
    this.#uncaught = uncaught;
    this.#notFoundHandler = notFoundHandler;
    watchNotFound(hono, (handler) => {
      this.#notFoundHandler = handler;
    });
    hono.notFound(notFoundHandler);
    // Hono's own `next` below a single handler.
    this.#below = async (c) => {
      c.res = await this.#notFoundHandler(c);
    };
  }

  /** A Context for `request` that no route was matched for (yet), as Hono would make it. */
  context(request: Request, env: unknown): Context {
    return newContext(request, { env, path: this.#hono.getPath(request, { env }) });
  }

  /** Routes `request` and answers it (see the class). */
  fetch(request: Request, env: unknown, executionCtx: unknown): Response | Promise<Response> {
    const hono = this.#hono;
    const method = request.method;
    const head = method === "HEAD";
    const path = hono.getPath(request, { env } as never);
    // HEAD runs the GET route, as Hono's dispatch does.
    const matchResult = hono.router.match(head ? "GET" : method, path);
    const matched = matchResult[0];
    const route = matched.length === 1 ? matched[0]![0][0] : undefined;
    if (isSettledRoute(route)) {
      const c = newContext(request, {
        path,
        matchResult,
        env,
        executionCtx,
        notFoundHandler: this.#notFoundHandler,
      });
      let res: Response | Promise<Response>;
      try {
        res = route(c, this.#below);
      } catch (err) {
        // As Hono's dispatch: an Error to its error handler, anything else thrown on.
        if (err instanceof Error) res = this.#uncaught(err, c);
        else throw err;
      }
      if (!head) return res;
      return res instanceof Promise ? res.then(headResponse) : headResponse(res);
    }
    return hono.fetch(request, env, executionCtx as never);
  }
}
