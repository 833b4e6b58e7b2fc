import { defineModel } from "wisent";
import { z } from "zod";

/** The peers' Widget: the zod schema `wisent g r widget title description:nulls.Text` writes. */
export const Widget = defineModel({
  table: "widgets",
  schema: z.object({
    title: z.string().trim().min(1).max(255),
    description: z.string().nullable().default(null),
  }),
});
