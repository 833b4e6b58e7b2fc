/** The query parameters of keyset pagination: rows after a cursor, or before it. */
export type CursorParam = "after" | "before";

/**
 * Buffalo's paginator as a list answer sends it (the `X-Pagination` header, the typed client's
 * `pagination`). A list longer than the count limit (`configurePagination`) carries the
 * database's estimate of its total (on SQLite, a whole table's count where that is cheap), marked
 * `total_entries_estimated: true` (`null` totals when the database has none); a page read with a cursor (`after`/`before`) has no page number, offset
 * or total (`null`).
 */
export interface PaginationJson {
  page: number | null;
  per_page: number;
  offset: number | null;
  total_entries_size: number | null;
  current_entries_size: number;
  total_pages: number | null;
  /** The list is longer than the count limit: its total is the database's estimate (see above). */
  total_entries_estimated?: boolean;
}

/** The paginator of a page the server read: `PaginationJson` and where the page's cursors lead. */
export interface Paginator extends PaginationJson {
  total_entries_estimated?: true;
  /** The cursor of this page's last row, when rows follow that page numbers do not reach. */
  next_cursor?: string;
  /** The cursor of this page's first row, when a cursor page has rows before it. */
  prev_cursor?: string;
  /** How this page was asked for: by `page` number, or after/before a cursor. */
  cursor?: CursorParam;
}
