import { randomUUID } from "node:crypto";

/** The header a request id is read from and echoed in. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** Ids from proxies are kept when they look like ids (no spaces or control characters). */
const SANE_ID = /^[\w.:@/+=-]{1,200}$/;

/** The incoming id when it is sane, else a new UUID. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
}
