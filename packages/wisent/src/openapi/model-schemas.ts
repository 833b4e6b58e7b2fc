import { z } from "zod";
import type { ResourceModel } from "../resources/resource.js";
import { attachmentRuleOf } from "../storage/attachment-rule.js";
import { type DecimalRuleInfo, decimalRuleOf } from "../validation/decimal.js";

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses) produced by zod. */
export type JsonSchema = Record<string, unknown>;

/**
 * Dates answer as ISO 8601 text in JSON (`"2024-05-01T12:30:00.000Z"`): zod cannot say that by
 * itself, so its own `override` hook describes them (the one place zod's output is adjusted).
 */
function datesAsText(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
  if (def?.type === "date") {
    ctx.jsonSchema.type = "string";
    ctx.jsonSchema.format = "date-time";
  }
}

/** A stored file as JSON answers carry it (see `StoredAttachment.toJSON`). */
const STORED_FILE: JsonSchema = {
  type: "object",
  properties: {
    url: { type: "string" },
    name: { type: "string" },
    type: { type: "string" },
    size: { type: "integer" },
    checksum: { type: "string" },
  },
  required: ["url", "name", "type", "size", "checksum"],
};

/**
 * A decimal (`decimal(10, 2)`) as JSON carries it: exact text with its scale in an answer
 * (`"16.00"`, a `pattern` saying so), text or a number in a request.
 */
function decimalSchema(rule: DecimalRuleInfo, io: "input" | "output"): JsonSchema {
  const whole = rule.precision - rule.scale;
  const wholePart = whole === 0 ? "0" : `(0|[1-9]\\d{0,${whole - 1}})`;
  const places = rule.scale === 0 ? "" : `\\.\\d{${rule.scale}}`;
  const size = `An exact decimal(${rule.precision}, ${rule.scale})`;
  const nullable = rule.fallback === null;
  if (io === "output") {
    return {
      type: nullable ? ["string", "null"] : "string",
      pattern: `^-?${wholePart}${places}$`,
      description: `${size}, as text with ${rule.scale === 0 ? "no decimal point" : `${rule.scale} places`}.`,
    };
  }
  return {
    type: nullable ? ["string", "number", "null"] : ["string", "number"],
    pattern: "^[+-]?\\d*(\\.\\d*)?$",
    description: `${size}: text (exact) or a number, with at most ${rule.scale} places.`,
    ...(rule.fallback !== undefined ? { default: rule.fallback } : {}),
  };
}

/** Attachments: a file part (`format: binary`) in a request, the stored file in an answer. */
function filesAs(io: "input" | "output") {
  return (ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void => {
    const decimal = decimalRuleOf(ctx.zodSchema);
    if (decimal) {
      for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
      Object.assign(ctx.jsonSchema, decimalSchema(decimal, io));
      return;
    }
    const rule = attachmentRuleOf(ctx.zodSchema);
    if (!rule) {
      datesAsText(ctx);
      return;
    }
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    // An optional file is null in a record that has none.
    const stored = rule.optional ? { ...STORED_FILE, type: ["object", "null"] } : STORED_FILE;
    const one = io === "input" ? { type: "string", format: "binary" } : stored;
    Object.assign(ctx.jsonSchema, rule.many ? { type: "array", items: one } : one);
  };
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    override: filesAs(io),
  }) as JsonSchema;
  return json;
}

/** Whether a model has attachment fields: its bodies are then multipart/form-data. */
export function takesFiles(model: ResourceModel): boolean {
  return Object.values(model.schema.shape).some((field) => attachmentRuleOf(field) !== undefined);
}

/** The columns every stored record has besides the model's fields (see `ModelColumns`). */
const recordColumns = { id: z.uuid(), created_at: z.date(), updated_at: z.date() };

/**
 * A record as the JSON API answers it: the model's output fields plus `id`, `created_at` and
 * `updated_at`, every one present.
 * @example recordJsonSchema(Widget).required // ["title", "description", "id", "created_at", "updated_at"]
 */
export function recordJsonSchema(model: ResourceModel): JsonSchema {
  return toJsonSchema(model.schema.extend(recordColumns), "output");
}

/** Fields the path gives (`widget_id` of a nested image): the action sets them, not the body. */
function withoutPathFields(model: ResourceModel, pathParams: readonly string[]): z.ZodObject {
  const omit: Record<string, true> = {};
  for (const name of pathParams) if (name in model.schema.shape) omit[name] = true;
  return Object.keys(omit).length === 0 ? model.schema : model.schema.omit(omit);
}

/**
 * The body of a create: the model's input fields, required as validation requires them (a field
 * with a default may be left out), less the fields the path parameters give.
 */
export function createBodySchema(model: ResourceModel, pathParams: readonly string[]): JsonSchema {
  return toJsonSchema(withoutPathFields(model, pathParams), "input");
}

/**
 * The body of an update: any subset of the create body (the record's values fill the rest). No
 * `default`: an update leaves a field it is not sent as stored, so a default would be a lie
 * (and clients that fill documented defaults in would overwrite stored values with them).
 */
export function updateBodySchema(model: ResourceModel, pathParams: readonly string[]): JsonSchema {
  return withoutDefaults(toJsonSchema(withoutPathFields(model, pathParams).partial(), "input"));
}

/** The schema with every `default` keyword taken out, at any depth (a field named so stays). */
function withoutDefaults(schema: JsonSchema): JsonSchema {
  const walk = (value: unknown, fieldNames: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, false));
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === "default" && !fieldNames) continue;
      out[key] = walk(inner, !fieldNames && (key === "properties" || key === "$defs"));
    }
    return out;
  };
  return walk(schema, false) as JsonSchema;
}

/** A JSON Schema of any zod schema a route documents (`documented(...)`, a resource's `docs`). */
export function zodJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return toJsonSchema(schema, io);
}
