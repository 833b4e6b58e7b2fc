import { defineModel } from "wisent";
import { z } from "zod";

/** The spec's widget: title required (a varchar(255) column), description nullable text. */
export const Widget = defineModel({
  table: "widgets",
  schema: z.object({
    title: z.string().trim().min(1).max(255),
    description: z.string().nullable().default(null),
  }),
});
