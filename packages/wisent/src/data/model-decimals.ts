import type { z } from "zod";
import { type DecimalRuleInfo, decimalRuleOf, storedDecimal } from "../validation/decimal.js";

/** A model's decimal fields: name and column size. */
export type DecimalFields = ReadonlyArray<readonly [string, DecimalRuleInfo]>;

/** The `decimal()` fields of a model's schema (empty for most models: then nothing here runs). */
export function decimalFieldsOf(schema: z.ZodObject): DecimalFields {
  const fields: [string, DecimalRuleInfo][] = [];
  for (const [name, field] of Object.entries(schema.shape)) {
    const rule = decimalRuleOf(field);
    if (rule) fields.push([name, rule]);
  }
  return fields;
}

/**
 * A row as read from the database, its decimal columns as exact text with their scale
 * (`"16.00"`): what PostgreSQL and MySQL return, and what SQLite's numbers are made into.
 */
export function readDecimals<Row>(row: Row, fields: DecimalFields): Row {
  const record = row as Record<string, unknown>;
  for (const [name, info] of fields) {
    if (name in record) record[name] = storedDecimal(record[name], info);
  }
  return row;
}
