/**
 * The handlers' work for the peer variants, shared by all of them: the same prepared
 * better-sqlite3 statements (the SQL Wisent's model runs), the same zod schema, the same pages.
 */
import BetterSqlite3 from "better-sqlite3";
import { paginationHeaders, uuidv7 } from "wisent/db";
import { Widget } from "./widget.mjs";

const file = process.env.DATABASE_FILE;
if (!file) throw new Error("DATABASE_FILE is not set");
/** The peers' connection to their copy of the database (api-work.mjs adds its transaction). */
export const db = new BetterSqlite3(file, { timeout: 5000 });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");

const byId = db.prepare('select * from "widgets" where "id" = ?');
const page = db.prepare('select * from "widgets" order by "id" limit ? offset ?');
const count = db.prepare('select count(*) as "count" from "widgets"');
const insert = db.prepare(
  'insert into "widgets" ("title", "description", "id", "created_at", "updated_at") values (?, ?, ?, ?, ?)',
);

/** One widget or undefined. */
export const findWidget = (id) => byId.get(id);

/** A page of 20 (or per_page) plus its paginator, as Wisent's paginate computes it. */
export const listWidgets = (query) => paginate(query);

/** The page `query` asks for (each row through `read`, when given) and the paginator Wisent computes. */
export function paginate(query, read) {
  const n = Math.min(100, Math.max(1, Number.parseInt(query.per_page, 10) || 20));
  const p = Math.max(1, Number.parseInt(query.page, 10) || 1);
  const offset = (p - 1) * n;
  const found = page.all(n, offset);
  // No map for the floor's raw rows: it is the bench's fastest variant.
  const rows = read ? found.map(read) : found;
  const total = rows.length === n ? count.get().count : offset + rows.length;
  const paginator = {
    page: p,
    per_page: n,
    offset,
    total_entries_size: total,
    current_entries_size: rows.length,
    total_pages: Math.ceil(total / n),
  };
  return { rows, paginator };
}

/** The Link/X-Pagination/X-Total-Count headers Wisent sends. */
export const listHeaders = (paginator, url) => paginationHeaders(paginator, url);

/** Validates with the app's zod schema and inserts; { errors } or { widget }. */
export function createWidget(input) {
  const result = Widget.validate(input);
  if (!result.ok) return { errors: result.errors };
  const widget = stampWidget(result.data);
  insertWidget(widget);
  return { widget };
}

/** Validated fields with the id and timestamps Wisent's model gives a new record. */
export function stampWidget(data) {
  const now = new Date();
  const stamp = now.toISOString();
  return { ...data, id: uuidv7(now.getTime()), created_at: stamp, updated_at: stamp };
}

/** Inserts a stamped widget. */
export const insertWidget = (widget) =>
  insert.run(widget.title, widget.description, widget.id, widget.created_at, widget.updated_at);

export { indexHtml, showHtml } from "./pages.mjs";
