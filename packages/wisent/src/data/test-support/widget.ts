import { z } from "zod";
import { decimal } from "../../validation/decimal.js";
import { defineModel, type RecordOf } from "../model.js";

/** The example shop's widget: title required, description nullable. */
export const Widget = defineModel({
  table: "widgets",
  schema: z.object({
    title: z.string().trim().min(1),
    description: z.string().nullable().default(null),
  }),
});
export type Widget = RecordOf<typeof Widget>;

export const Part = defineModel({
  table: "parts",
  schema: z.object({
    widget_id: z.uuid(),
    name: z.string().trim().min(1).max(80),
    quantity: z.number().int().min(0).default(0),
    in_stock: z.boolean(),
    price: decimal(10, 2),
    shipped_at: z.date().nullable().default(null),
    made_on: z.iso.date(),
    specs: z.record(z.string(), z.unknown()).nullable().default(null),
  }),
});

export const MIGRATIONS = new URL("./migrations", import.meta.url).pathname;
