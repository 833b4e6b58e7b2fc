/**
 * Values that are ready now on SQLite (its queries run synchronously) and later on the network
 * databases. Chaining them with `then` only when they are promises saves the model's hot reads
 * a promise and a microtask turn per step: SQLite point reads take about 4 us, each hop 0.1-0.3 us.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` now when `value` is ready, else once it settles. */
export function chain<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** {@link chain} with the step's argument apart: no closure per call when `value` is ready. */
export function chainWith<T, A, U>(
  value: MaybePromise<T>,
  next: (value: T, arg: A) => MaybePromise<U>,
  arg: A,
): MaybePromise<U> {
  return value instanceof Promise ? value.then((ready: T) => next(ready, arg)) : next(value, arg);
}

/** The outcome of `work` as one promise: its value, its promise, or a rejection for a throw. */
export function settle<T>(work: () => MaybePromise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * `next(value, arg)` as one promise: at once when `value` is ready (a throw becomes a
 * rejection), else once it settles. The step takes its argument apart, so a hot read passes a
 * plain function instead of making a closure (and its context) per call, as `settle` and
 * `chain` would: `settleWith(rows, foundOr404, id)`.
 */
export function settleWith<T, A, U>(
  value: MaybePromise<T>,
  next: (value: T, arg: A) => MaybePromise<U>,
  arg: A,
): Promise<U> {
  try {
    return Promise.resolve(chainWith(value, next, arg));
  } catch (error) {
    return Promise.reject(error);
  }
}
