import vine from "@vinejs/vine";

/** The create form and JSON body: a title (trimmed, 1-255 characters), an optional description. */
export const createWidgetValidator = vine.create({
  title: vine.string().trim().minLength(1).maxLength(255),
  description: vine.string().nullable().optional(),
});
