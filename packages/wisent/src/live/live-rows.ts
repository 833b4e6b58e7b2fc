import type { Context } from "hono";
import type { WrittenRecord } from "../data/written-records.js";
import { type Page, pageOf, withPage } from "../http/page.js";
import { h } from "../jsx/jsx-runtime.js";
import { renderToString } from "../jsx/render.js";
import type { LiveRowOptions } from "../resources/options.js";
import { type LiveEvent, turboStreamAction } from "./live-event.js";

/** A resource's live rows, resolved: the row, its model's name, where created rows go. */
export interface LiveRows {
  readonly row: LiveRowOptions["row"];
  /** The model's name: the rows' ids are `<name>_<id>`. */
  readonly modelName: string;
  readonly target: string;
  readonly insertsBy: "append" | "prepend";
}

/**
 * The id of a record's element, Rails' `dom_id`: the model's name and the record's id
 * (`widget_12`); with a prefix, `edit_widget_12`.
 *
 * @param model - the record's model (its `name`)
 * @param record - the record (its `id`)
 * @param prefix - put before it, with an underscore
 * @returns the element id
 * @example <tr id={domId(Widget, widget)}>...</tr>
 */
export function domId(
  model: { readonly name: string },
  record: { readonly id: unknown },
  prefix?: string,
): string {
  const id = `${model.name}_${String(record.id)}`;
  return prefix ? `${prefix}_${id}` : id;
}

/** Beyond this, a row is not sent (a refresh is): PostgreSQL's NOTIFY takes < 8000 bytes. */
const MAX_ROW_BYTES = 7_000;

/** The writing request's page without its CSRF token, which is its session's, not the reader's. */
function pageWithoutToken(c: Context): Page {
  const page = pageOf(c);
  return {
    flash: {},
    csrfToken: undefined,
    csrfParam: page.csrfParam,
    get lang() {
      return page.lang;
    },
    t: page.t,
    c,
  };
}

/**
 * The targeted action of one write: the rendered row appended (or prepended) to the target on
 * `created`, replacing its element on `updated`, its element removed on `destroyed`; undefined
 * when the row cannot be rendered or is too large to send (the caller refreshes instead).
 */
export function rowEvent(c: Context, rows: LiveRows, write: WrittenRecord): LiveEvent | undefined {
  const id = domId({ name: rows.modelName }, write.record);
  if (write.action === "destroyed") return turboStreamAction("remove", id);
  let html: string;
  try {
    html = withPage(pageWithoutToken(c), () =>
      renderToString(h(rows.row as never, { record: write.record })),
    );
  } catch (error) {
    console.error(`live: could not render the row of ${id}:`, error);
    return undefined;
  }
  if (Buffer.byteLength(html) > MAX_ROW_BYTES) return undefined;
  return write.action === "created"
    ? turboStreamAction(rows.insertsBy, rows.target, html)
    : turboStreamAction("replace", id, html);
}
