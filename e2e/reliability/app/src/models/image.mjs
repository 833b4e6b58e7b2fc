import { defineModel } from "wisent";
import { z } from "zod";

/** The nested image of a widget (`wisent g r image caption --parent widget`). */
export const Image = defineModel({
  table: "images",
  schema: z.object({
    widget_id: z.uuid(),
    caption: z.string().trim().min(1).max(255),
  }),
});
