import type { Context, ErrorHandler, Handler, MiddlewareHandler, Next } from "hono";

/**
 * Folds a route's middleware and handler into ONE Hono handler, so Hono dispatches every route
 * through its single-handler fast path. Semantics follow Hono's own `compose`: each middleware
 * gets `next()`, a returned Response becomes `c.res`, and an error thrown below a middleware is
 * turned into a response by `onError` at that level (so logging or transaction middleware sees
 * the error's status after `await next()`, and `c.error` holds the error).
 */
export function composeRoute(
  middleware: readonly MiddlewareHandler[],
  handler: Handler,
  onError: ErrorHandler,
): Handler {
  if (middleware.length === 0) return handler;
  const chain = [...middleware, handler as MiddlewareHandler];
  return (c: Context, last: Next) => {
    let index = -1;
    const dispatch = async (i: number): Promise<void> => {
      if (i <= index) throw new Error("next() called multiple times");
      index = i;
      const fn = i < chain.length ? chain[i]! : last;
      let res: Response | undefined | void;
      let isError = false;
      try {
        res = await fn(c, () => dispatch(i + 1));
        if (i < chain.length) checkResult(res, c, i === chain.length - 1);
      } catch (err) {
        if (!(err instanceof Error)) throw err;
        c.error = err;
        res = await onError(err, c);
        isError = true;
      }
      if (res && (!c.finalized || isError)) c.res = res;
    };
    return dispatch(0).then(() => c.res);
  };
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
