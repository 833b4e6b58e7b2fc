/** One Server-Sent Event: `event:` (default `message`) and its `data:` text. */
export interface LiveEvent {
  /** The SSE event type; Turbo's `<turbo-stream-source>` reads the default, `message`. */
  readonly event?: string;
  readonly data: string;
}

/** The wire form of an event: `event:` when named, one `data:` line per line of its text. */
export function formatSse(event: LiveEvent): string {
  const head = event.event ? `event: ${event.event}\n` : "";
  return `${head}data: ${event.data.replace(/\r\n|\r|\n/g, "\ndata: ")}\n\n`;
}

/**
 * A Turbo Stream `refresh`: the page fetches itself again with its own session (so a list
 * scoped to its user never receives another user's rows). `request-id` is the changing
 * request's `X-Turbo-Request-Id`: the tab that made the change ignores its own refresh.
 */
export function turboRefresh(requestId: string | undefined): LiveEvent {
  const id = requestId === undefined ? "" : ` request-id="${requestId}"`;
  return { data: `<turbo-stream action="refresh"${id}></turbo-stream>` };
}
