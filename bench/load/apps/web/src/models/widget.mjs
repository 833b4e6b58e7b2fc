import { defineModel } from "wisent";
import { z } from "zod";

/** Widget: the `widgets` table (title, description), as `wisent g r` writes src/models/widget.ts. */
export const Widget = defineModel({
  table: "widgets",
  schema: z.object({
    title: z.string().trim().min(1).max(255),
    description: z.string().nullable().default(null),
  }),
});
