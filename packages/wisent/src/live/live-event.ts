/** One Server-Sent Event: `event:` (default `message`) and its `data:` text. */
export interface LiveEvent {
  /** The SSE event type; Turbo's `<turbo-stream-source>` reads the default, `message`. */
  readonly event?: string;
  readonly data: string;
}

/**
 * The wire form of an event: `id:` when given (a reconnecting EventSource sends the last one
 * back as `Last-Event-ID`), `event:` when named, one `data:` line per line of its text.
 */
export function formatSse(event: LiveEvent, id?: string): string {
  const head = `${id === undefined ? "" : `id: ${id}\n`}${event.event ? `event: ${event.event}\n` : ""}`;
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

/** Attribute text in double quotes: `&`, `"` and `<` escaped. */
function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * A targeted Turbo Stream action (`append`, `prepend`, `replace`, `remove`) on the element whose
 * id is `target`, with the rendered HTML it inserts (none for `remove`).
 * @example turboStreamAction("remove", "widget_12"); // <turbo-stream action="remove" target="widget_12">
 */
export function turboStreamAction(
  action: "append" | "prepend" | "replace" | "remove",
  target: string,
  html?: string,
): LiveEvent {
  const content = html === undefined ? "" : `<template>${html}</template>`;
  return {
    data: `<turbo-stream action="${action}" target="${attribute(target)}">${content}</turbo-stream>`,
  };
}

/**
 * The page goes to `location` (a record page whose record was destroyed goes to the list), with
 * `notice` shown there (`visit` is a stream action of Wisent's live script, not of Turbo).
 */
export function turboVisit(location: string, notice: string): LiveEvent {
  return {
    data: `<turbo-stream action="visit" location="${attribute(location)}" notice="${attribute(notice)}"></turbo-stream>`,
  };
}
