/**
 * A reader that runs `read` on its first call and answers that value (`undefined` too) ever
 * after; a `read` that throws is tried again on the next call. For settings an App reads once
 * from the environment, at the first request that needs them, as it reads `GO_ENV`.
 *
 * @example
 * const appUrl = readOnce(() => configuredAppUrl());
 * appUrl(); // parsed on the first call only
 */
export function readOnce<T>(read: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = read();
      done = true;
    }
    return value;
  };
}
