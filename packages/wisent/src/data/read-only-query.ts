import { type CompiledQuery, RawNode, SelectQueryNode } from "kysely";

// A statement that only reads begins with SELECT...
const SELECT = /^\s*select\b/i;
// ...or is a plain EXPLAIN of one, which plans it without running it (a list's estimate); not
// EXPLAIN ANALYZE nor EXPLAIN with options, which may run it.
const PLAIN_EXPLAIN = /^\s*explain\s+(?=select\b)/i;
// ...and has none of these: a locking clause (PostgreSQL's FOR UPDATE / NO KEY UPDATE / SHARE /
// KEY SHARE, MySQL's LOCK IN SHARE MODE), whose locks end with the statement's own transaction;
// SELECT ... INTO, which creates a table; a second statement after a semicolon; the time the
// transaction began (now(), CURRENT_TIMESTAMP..., the same for every statement of a
// transaction, not of statements run each on its own). A match inside a string or a quoted
// name only costs that query a BEGIN it did not need.
const NOT_ONLY_READING =
  /\bfor\s+(?:no\s+key\s+update|key\s+share|update|share)\b|\block\s+in\s+share\s+mode\b|\binto\b|;\s*\S|\b(?:current_timestamp|current_time|current_date|localtimestamp|localtime)\b/i;

// A name before an opening parenthesis: a function call, a type's size, or a keyword; with
// the dot before it when it is qualified (`schema.function(`).
const CALL = /(\.?)([a-z_][\w$]*|"(?:[^"]|"")+")\s*\(/gi;

// What may stand before a parenthesis in a statement that only reads: SQL's keywords and type
// names, and built-in functions without side effects (aggregates, window functions, text,
// numbers, dates, JSON, arrays, full-text search). Any other call (a function of the app's own,
// set_config, nextval, the advisory locks, now(), txid_current...) counts as a write.
const READ_ONLY_CALLS = new Set(
  `all and any array as between by case cast coalesce distinct else except exists extract filter
  from greatest group having ilike in intersect is join lateral least like limit not nullif
  offset on or over partition row select similar some then to union using values when where
  within
  bigint bit char character date dec decimal float int integer interval numeric smallint time
  timestamp timestamptz varbit varchar
  count sum min max avg bool_and bool_or every array_agg string_agg json_agg jsonb_agg
  json_object_agg jsonb_object_agg percentile_cont percentile_disc mode stddev variance
  row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value
  nth_value
  lower upper length char_length octet_length substring substr trim btrim ltrim rtrim replace
  concat concat_ws position strpos left right lpad rpad split_part starts_with format md5
  encode decode regexp_replace regexp_match regexp_matches regexp_split_to_array translate
  initcap repeat reverse quote_ident quote_literal to_hex ascii chr
  abs round ceil ceiling floor trunc mod power sqrt sign exp ln log random width_bucket
  date_trunc date_part to_char to_date to_timestamp to_number age make_date make_timestamp
  make_interval justify_days justify_hours isfinite statement_timestamp clock_timestamp
  to_json to_jsonb row_to_json array_to_json json_build_object jsonb_build_object
  json_build_array jsonb_build_array json_object jsonb_object json_array_length
  jsonb_array_length json_typeof jsonb_typeof json_extract_path jsonb_extract_path
  json_extract_path_text jsonb_extract_path_text jsonb_set jsonb_insert jsonb_strip_nulls
  jsonb_path_exists jsonb_path_query jsonb_path_query_first jsonb_path_match jsonb_pretty
  json_each jsonb_each json_each_text jsonb_each_text json_array_elements jsonb_array_elements
  json_array_elements_text jsonb_array_elements_text json_object_keys jsonb_object_keys
  array_length array_lower array_upper cardinality unnest array_to_string string_to_array
  array_position array_positions array_remove array_replace array_append array_prepend
  array_cat generate_series generate_subscripts
  to_tsvector to_tsquery plainto_tsquery phraseto_tsquery websearch_to_tsquery ts_rank
  ts_rank_cd ts_headline setweight
  gen_random_uuid current_setting`.split(/\s+/),
);

/**
 * Whether a query only reads, so that a reading request may run it outside a transaction:
 * a Kysely select or raw SQL (`CompiledQuery.raw`, `sql`...) whose text starts with SELECT, has
 * no locking clause, no INTO, no second statement, and calls no function but the built-ins
 * known to have no side effects; or a plain EXPLAIN of such a SELECT. Anything else counts as a
 * write: inserts, updates, deletes, WITH (its parts may write), EXPLAIN ANALYZE or with options
 * (ANALYZE runs the statement), CALL, DO, SET, savepoints,
 * and a SELECT of a function that may write or whose effect lasts for the transaction.
 */
export function onlyReads(query: CompiledQuery): boolean {
  const node = query.query;
  const explained = PLAIN_EXPLAIN.exec(query.sql);
  const text = explained ? query.sql.slice(explained[0].length) : query.sql;
  if (!(SelectQueryNode.is(node) || RawNode.is(node))) return false;
  if (!SELECT.test(text) || NOT_ONLY_READING.test(text)) return false;
  if (!text.includes("(")) return true;
  for (const [, dot, name] of text.matchAll(CALL)) {
    // A qualified name may be the app's own function of a built-in's name.
    if (dot || !READ_ONLY_CALLS.has(calledName(name!))) return false;
  }
  return true;
}

/** A name as PostgreSQL resolves it: folded to lower case unless quoted. */
function calledName(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toLowerCase();
}
