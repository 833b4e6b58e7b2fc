/**
 * The database type of code that works with any schema (migrations, models, the request's
 * transaction): Kysely's own idiom is `Kysely<any>`, so that any table name type-checks.
 */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented idiom for schema-agnostic code
export type AnyDB = any;
