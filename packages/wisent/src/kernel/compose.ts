import type { Context, ErrorHandler, Handler, MiddlewareHandler, Next } from "hono";
import { DEFERRED_KEY, MIDDLEWARE_PHASES_KEY, SETTLED_ROUTE_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import { applyResponseHeaders, editResponseHeaders } from "./response-headers.js";

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

const PHASES: typeof MIDDLEWARE_PHASES_KEY = MIDDLEWARE_PHASES_KEY;
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
    applyResponseHeaders(c);
    if (after) await after(c);
  };
  middleware[PHASES] = phases;
  return middleware;
}

/** A middleware that does nothing (e.g. `forceSSL()` outside production): routes leave it out. */
export const passThrough: MiddlewareHandler = phased({});

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * What a step of a {@link RouteRun} returns when the route's answer waits on a promise the run
 * holds but has not chained anything to yet (see `RouteRun.#defer`).
 */
const DEFERRED: typeof DEFERRED_KEY = DEFERRED_KEY;

/** What a step of a route returns: done (undefined), a promise, or {@link DEFERRED}. */
type Pending = Promise<unknown> | typeof DEFERRED | undefined;

/** `RouteRun.#waitAnswer` when the promise waited on is a step's, not a layer's answer. */
const NO_ANSWER = -1;

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
  return { before: phases.before, after: withHeaders(phases.after), around: undefined };
}

/**
 * A phased layer's after-step, beginning with the slow path of `setHeaders` (the request's
 * header parts put on an answer `c.respond` did not make with them), so every after-step, and
 * every plain middleware above, sees the answer with its headers.
 */
function withHeaders(after: MiddlewarePhases["after"]): NonNullable<MiddlewarePhases["after"]> {
  if (!after) return applyResponseHeaders;
  return (c) => {
    applyResponseHeaders(c);
    return after(c);
  };
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
 * and the handler answer synchronously the route answers synchronously too. When the handler
 * answers with a promise (any async handler), everything after it (checking its answer, the
 * after-steps of the phased layers above it, the route's own answer) runs in one continuation:
 * one promise and one microtask turn a request, however many layers.
 */
export function composeRoute(
  middleware: readonly MiddlewareHandler[],
  handler: Handler,
  onError: ErrorHandler,
  uncaught?: ErrorHandler,
): Handler {
  const layers: Layer[] = [];
  for (const fn of middleware) {
    const layer = layerOf(fn);
    if (layer) layers.push(layer);
  }
  if (layers.length === 0) return handler;
  layers.push({ before: undefined, after: undefined, around: handler as MiddlewareHandler });
  const route: Route = { layers, handlerAt: layers.length - 1, onError, uncaught };
  const composed: Composed = (c: Context, last: Next | Below) => new RouteRun(route, c, last).run();
  if (uncaught) composed[SETTLED] = true;
  return composed;
}

/**
 * What runs below a composed route's handler when it calls `next()`: Hono's `Next`, or (from
 * `App.fetch`, which calls routes itself) a function of the context, made once per App.
 */
export type Below = (c: Context) => Promise<void>;

const SETTLED: typeof SETTLED_ROUTE_KEY = SETTLED_ROUTE_KEY;
type Composed = ((c: Context, last: Next | Below) => Response | Promise<Response>) & {
  [SETTLED]?: true;
};

/**
 * Whether `handler` is a route {@link composeRoute} made with an `uncaught` handler: it answers
 * `c.res` itself, and its promise rejects only with what Hono's own error handling would let
 * through (a thrown non-Error, or what `uncaught` throws), so a caller can return its answer
 * as it is, without Hono's `.then(...).catch(...)` around it.
 */
export function isSettledRoute(
  handler: unknown,
): handler is (c: Context, below: Below) => Response | Promise<Response> {
  return typeof handler === "function" && (handler as Composed)[SETTLED] === true;
}

interface Route {
  readonly layers: readonly Layer[];
  readonly handlerAt: number;
  readonly onError: ErrorHandler;
  /** Hono's error handler, for an Error escaping the route's promise (see composeRoute). */
  readonly uncaught: ErrorHandler | undefined;
}

/** One request going through one route's layers. */
class RouteRun {
  #index = -1;
  readonly #route: Route;
  readonly #c: Context;
  readonly #last: Next | Below;
  // The promise the route's answer waits on, not chained yet (a step returned DEFERRED): what
  // follows it runs in ONE continuation (see #resume) instead of a promise and a microtask turn
  // per step. #waitAnswer is the layer whose answer it is (checked and set as the response when
  // it settles), or NO_ANSWER for a step's promise; the after-steps of layers #waitTo - 1 down
  // to #waitFrom follow, all phased (an around layer's next() resumes the wait itself).
  #waitOn: Promise<unknown> | undefined;
  #waitAnswer = NO_ANSWER;
  #waitFrom = 0;
  #waitTo = 0;

  constructor(route: Route, c: Context, last: Next | Below) {
    this.#route = route;
    this.#c = c;
    this.#last = last;
  }

  /** The route's answer: the Response now when every step was synchronous, else its promise. */
  run(): Response | Promise<Response> {
    const pending = this.dispatch(0);
    if (pending === undefined) return this.#c.res;
    if (pending === DEFERRED) return this.#resume(true);
    return this.#route.uncaught
      ? pending.then(
          () => this.#c.res,
          (err: unknown) => this.#uncaught(err),
        )
      : pending.then(() => this.#c.res);
  }

  /**
   * An error escaping the route's promise (one in `onError` itself), as Hono's dispatch takes
   * it: an Error goes to Hono's error handler, anything else is thrown on.
   */
  #uncaught(err: unknown): Response | Promise<Response> {
    if (!(err instanceof Error)) throw err;
    return this.#route.uncaught!(err, this.#c);
  }

  /** Runs layer `i` and everything below it; a promise only when something below is async. */
  dispatch(i: number): Pending {
    if (i <= this.#index) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `a middleware of ${this.#c.req.method} ${this.#c.req.routePath} called next() twice: await it once`,
      );
    }
    this.#index = i;
    const layer = this.#route.layers[i];
    if (layer === undefined) {
      // Below the handler: Hono's own next (its not-found answer), if the handler called next().
      let res: Promise<void>;
      try {
        // Hono's Next takes no argument; App.fetch's Below takes the context.
        res = (this.#last as Below)(this.#c);
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
          (res) => (res ? this.#took(res, i) : this.#settled(this.#below(i))),
          (err) => this.#fail(err),
        );
      }
      if (answer) return this.#took(answer, i);
    }
    return this.#below(i);
  }

  /** `next()` of an around layer: always a promise, as Hono's `Next` promises. */
  #next(i: number): Promise<void> {
    try {
      return (this.#settled(this.dispatch(i)) as Promise<void> | undefined) ?? RESOLVED;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The layers below a phased layer `i`, then its `after`. */
  #below(i: number): Pending {
    const pending = this.dispatch(i + 1);
    const after = this.#route.layers[i]!.after;
    if (!after) return pending;
    if (pending === undefined) return this.#after(after);
    if (pending !== DEFERRED) this.#defer(pending, NO_ANSWER, i + 1);
    // This layer's after-step joins the continuation of the wait.
    this.#waitFrom = i;
    return DEFERRED;
  }

  /** Holds `promise` as what the route waits on (see #waitOn); the caller returns DEFERRED. */
  #defer(promise: Promise<unknown>, answerOf: number, to: number): void {
    this.#waitOn = promise;
    this.#waitAnswer = answerOf;
    this.#waitFrom = to;
    this.#waitTo = to;
  }

  /** A step's outcome as a promise or undefined, for callers that need a real promise. */
  #settled(pending: Pending): Promise<unknown> | undefined {
    return pending === DEFERRED ? this.#resume() : pending;
  }

  /**
   * The one continuation of the wait: the answer checked and set (or its rejection turned into
   * the error response), then the waiting after-steps innermost first; resolves to the response.
   * The route's own answer (`top`) also takes what escapes it to `uncaught`, as Hono would.
   */
  #resume(top = false): Promise<Response> {
    const waitOn = this.#waitOn!;
    const answerOf = this.#waitAnswer;
    const from = this.#waitFrom;
    const to = this.#waitTo;
    this.#waitOn = undefined;
    const last = top && this.#route.uncaught !== undefined;
    return waitOn.then(
      (value) => {
        if (!last) return this.#continue(answerOf, value, to, from);
        try {
          return this.#caught(this.#continue(answerOf, value, to, from));
        } catch (err) {
          return this.#uncaught(err);
        }
      },
      (err: unknown) => {
        if (!last) return this.#continueFailed(answerOf, err, to, from);
        try {
          return this.#caught(this.#continueFailed(answerOf, err, to, from));
        } catch (escaped) {
          return this.#uncaught(escaped);
        }
      },
    );
  }

  /** What follows the wait's value: its answer taken, then the after-steps. */
  #continue(answerOf: number, value: unknown, to: number, from: number) {
    const done = answerOf === NO_ANSWER ? undefined : this.#took(value, answerOf);
    return this.#thenAfters(done, to - 1, from);
  }

  /** What follows the wait's rejection: the error response at its level, then the after-steps. */
  #continueFailed(answerOf: number, err: unknown, to: number, from: number) {
    // A step's rejection is a non-Error throw going up (see #fail): nothing more runs.
    if (answerOf === NO_ANSWER) throw err;
    return this.#thenAfters(this.#fail(err), to - 1, from);
  }

  /** A later step's promise, with what escapes it taken to `uncaught`. */
  #caught(result: Response | Promise<Response>): Response | Promise<Response> {
    return result instanceof Promise
      ? result.then(undefined, (err: unknown) => this.#uncaught(err))
      : result;
  }

  /** Once `done` settles, {@link #afters}. */
  #thenAfters(
    done: Promise<unknown> | undefined,
    k: number,
    from: number,
  ): Response | Promise<Response> {
    return done ? done.then(() => this.#afters(k, from)) : this.#afters(k, from);
  }

  /** The after-steps of layers `k` down to `from`, then the response; an async one holds the rest. */
  #afters(k: number, from: number): Response | Promise<Response> {
    const layers = this.#route.layers;
    for (; k >= from; k--) {
      const after = layers[k]!.after;
      if (!after) continue;
      const done = this.#after(after);
      if (done) {
        const rest = k - 1;
        return done.then(() => this.#afters(rest, from));
      }
    }
    return this.#c.res;
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

  /** What layer `i` returned: a promise is waited on, anything else taken at once. */
  #answered(res: unknown, i: number): Pending {
    if (res instanceof Promise) {
      this.#defer(res, i, i);
      return DEFERRED;
    }
    return this.#took(res, i);
  }

  /** What layer `i` answered (or its promise resolved to): checked, and set as the response. */
  #took(res: unknown, i: number): Promise<void> | undefined {
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
        dropStaleLocation(c);
      });
    }
    c.res = res;
    dropStaleLocation(c);
    return undefined;
  }
}

/**
 * Hono's `c.res` setter copies the replaced response's headers onto the new one: an error after
 * a redirect was made (in a middleware's after-step) would carry the redirect's `Location`.
 * An error answer points nowhere.
 */
function dropStaleLocation(c: Context): void {
  if (c.res.headers.has("location") && c.res.status >= 400) {
    editResponseHeaders(c, (headers) => headers.delete("location"));
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
  throw new WisentError(
    "E_APP_MISCONFIGURED",
    `${isHandler ? "the handler" : "a middleware"} of ${c.req.method} ${c.req.routePath} returned ${what} instead of a Response`,
  );
}
