import type { Context, ErrorHandler, Handler, MiddlewareHandler, Next } from "hono";

/**
 * What a middleware does before and after the rest of its route, when it needs no `next()`:
 * `before` may answer with a Response (the rest of the route is skipped, `after` too), `after`
 * runs once the rest of the route has answered (an error below has become its error response).
 * Either may be async; a synchronous one costs no promise at all.
 */
export interface MiddlewarePhases {
  // biome-ignore lint/suspicious/noConfusingVoidType: an async `before` that answers nothing is Promise<void>
  before?: (c: Context) => Response | undefined | void | Promise<Response | undefined | void>;
  after?: (c: Context) => undefined | void | Promise<void>;
}

const PHASES = Symbol("wisent.middlewarePhases");
type Phased = MiddlewareHandler & { [PHASES]?: MiddlewarePhases };

/**
 * A middleware written as phases (see {@link MiddlewarePhases}). It works anywhere a Hono
 * middleware does; inside an App's routes {@link composeRoute} runs the phases directly, so a
 * chain of synchronous phases and a synchronous handler answers without a single promise (and
 * Hono's Node adapter can write the Response on its immediate path).
 *
 * @example
 * app.use(phased({ before: (c) => c.set("layout", AppLayout) }));
 */
export function phased(phases: MiddlewarePhases): MiddlewareHandler {
  const { before, after } = phases;
  const middleware: Phased = async (c, next) => {
    if (before) {
      const answer = await before(c);
      if (answer) return answer;
    }
    await next();
    if (after) await after(c);
  };
  middleware[PHASES] = phases;
  return middleware;
}

/** A middleware that does nothing (e.g. `forceSSL()` outside production): routes leave it out. */
export const passThrough: MiddlewareHandler = phased({});

const RESOLVED: Promise<void> = Promise.resolve();

interface Layer {
  readonly before: MiddlewarePhases["before"];
  readonly after: MiddlewarePhases["after"];
  /** A plain Hono middleware (or the handler), called with `next`. */
  readonly around: MiddlewareHandler | undefined;
}

function layerOf(fn: MiddlewareHandler): Layer | undefined {
  const phases = (fn as Phased)[PHASES];
  if (!phases) return { before: undefined, after: undefined, around: fn };
  if (!phases.before && !phases.after) return undefined;
  return { before: phases.before, after: phases.after, around: undefined };
}

/**
 * Folds a route's middleware and handler into ONE Hono handler, so Hono dispatches every route
 * through its single-handler fast path. Semantics follow Hono's own `compose`: each middleware
 * gets `next()`, a returned Response becomes `c.res`, and an error thrown below a middleware is
 * turned into a response by `onError` at that level (so logging or transaction middleware sees
 * the error's status after `await next()`, and `c.error` holds the error).
 *
 * Nothing is allocated per layer beyond what a layer needs: {@link phased} middleware run as
 * plain calls, promises are only chained when a layer actually returns one, and when every layer
 * and the handler answer synchronously the route answers synchronously too.
 */
export function composeRoute(
  middleware: readonly MiddlewareHandler[],
  handler: Handler,
  onError: ErrorHandler,
): Handler {
  const layers: Layer[] = [];
  for (const fn of middleware) {
    const layer = layerOf(fn);
    if (layer) layers.push(layer);
  }
  if (layers.length === 0) return handler;
  layers.push({ before: undefined, after: undefined, around: handler as MiddlewareHandler });
  const route = { layers, handlerAt: layers.length - 1, onError };
  return (c: Context, last: Next) => {
    const run = new RouteRun(route, c, last);
    const pending = run.dispatch(0);
    return pending === undefined ? c.res : pending.then(() => c.res);
  };
}

interface Route {
  readonly layers: readonly Layer[];
  readonly handlerAt: number;
  readonly onError: ErrorHandler;
}

/** One request going through one route's layers. */
class RouteRun {
  #index = -1;
  readonly #route: Route;
  readonly #c: Context;
  readonly #last: Next;
  // The promise the layers below answer with, and the after-steps waiting on it, innermost
  // first: every phased layer above an async handler shares ONE continuation instead of
  // chaining a promise each (a microtask turn per layer on every request).
  #tail: Promise<void> | undefined;
  #tailAfters: NonNullable<MiddlewarePhases["after"]>[] | undefined;

  constructor(route: Route, c: Context, last: Next) {
    this.#route = route;
    this.#c = c;
    this.#last = last;
  }

  /** Runs layer `i` and everything below it; a promise only when something below is async. */
  dispatch(i: number): Promise<void> | undefined {
    if (i <= this.#index) throw new Error("next() called multiple times");
    this.#index = i;
    const layer = this.#route.layers[i];
    if (layer === undefined) {
      // Below the handler: Hono's own next (its not-found answer), if the handler called next().
      let res: Promise<void>;
      try {
        res = this.#last();
      } catch (err) {
        return this.#fail(err);
      }
      return this.#answered(res, i);
    }
    if (layer.around) {
      let res: ReturnType<MiddlewareHandler>;
      try {
        res = layer.around(this.#c, () => this.#next(i + 1));
      } catch (err) {
        return this.#fail(err);
      }
      return this.#answered(res, i);
    }
    if (layer.before) {
      let answer: ReturnType<NonNullable<MiddlewarePhases["before"]>>;
      try {
        answer = layer.before(this.#c);
      } catch (err) {
        return this.#fail(err);
      }
      if (answer instanceof Promise) {
        return answer.then(
          (res) => (res ? this.#answered(res, i) : this.#below(i)),
          (err) => this.#fail(err),
        );
      }
      if (answer) return this.#answered(answer, i);
    }
    return this.#below(i);
  }

  /** `next()` of an around layer: always a promise, as Hono's `Next` promises. */
  #next(i: number): Promise<void> {
    try {
      return this.dispatch(i) ?? RESOLVED;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The layers below a phased layer `i`, then its `after`. */
  #below(i: number): Promise<void> | undefined {
    const pending = this.dispatch(i + 1);
    const after = this.#route.layers[i]!.after;
    if (!after) return pending;
    if (pending === undefined) return this.#after(after);
    if (pending === this.#tail) {
      this.#tailAfters!.push(after);
      return pending;
    }
    const afters = [after];
    this.#tailAfters = afters;
    this.#tail = pending.then(() => this.#unwind(afters, 0));
    return this.#tail;
  }

  /** Runs the waiting after-steps in order; an async one holds the rest until it settles. */
  #unwind(
    afters: readonly NonNullable<MiddlewarePhases["after"]>[],
    from: number,
  ): Promise<void> | undefined {
    for (let k = from; k < afters.length; k++) {
      const done = this.#after(afters[k]!);
      if (done) return done.then(() => this.#unwind(afters, k + 1));
    }
    return undefined;
  }

  #after(after: NonNullable<MiddlewarePhases["after"]>): Promise<void> | undefined {
    let done: undefined | void | Promise<void>;
    try {
      done = after(this.#c);
    } catch (err) {
      return this.#fail(err);
    }
    return done instanceof Promise ? done.then(undefined, (err) => this.#fail(err)) : undefined;
  }

  /** What layer `i` returned (or resolved to): checked, and set as the response. */
  #answered(res: unknown, i: number): Promise<void> | undefined {
    if (res instanceof Promise) {
      return res.then(
        (resolved) => this.#answered(resolved, i),
        (err) => this.#fail(err),
      );
    }
    const c = this.#c;
    if (i < this.#route.layers.length) {
      try {
        checkResult(res, c, i === this.#route.handlerAt);
      } catch (err) {
        return this.#fail(err);
      }
    }
    if (res && !c.finalized) c.res = res as Response;
    return undefined;
  }

  /** An error at this level becomes the error response (as Hono's compose does). */
  #fail(err: unknown): Promise<void> | undefined {
    if (!(err instanceof Error)) throw err;
    const c = this.#c;
    c.error = err;
    const res = this.#route.onError(err, c);
    if (res instanceof Promise) {
      return res.then((resolved) => {
        c.res = resolved;
      });
    }
    c.res = res;
    return undefined;
  }
}

/**
 * A handler must answer with a Response (a middleware with a Response or nothing). Anything
 * else used to reach `c.res` (or leave Hono's empty 200 in place), so the transaction middleware
 * saw no error and committed: thrown here, it becomes a 500 and the transaction rolls back.
 */
function checkResult(res: unknown, c: Context, isHandler: boolean): void {
  if (res instanceof Response) return;
  if (res === undefined && (!isHandler || c.finalized)) return;
  const what =
    res === undefined
      ? "nothing"
      : res === null
        ? "null"
        : typeof res === "object"
          ? "an object"
          : `a ${typeof res}`;
  throw new TypeError(
    `${isHandler ? "the handler" : "a middleware"} of ${c.req.method} ${c.req.routePath} returned ${what} instead of a Response`,
  );
}
