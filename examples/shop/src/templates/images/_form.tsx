import type { ValidationErrors } from "wisent";
import { fileAccept } from "wisent/storage";
import { Image } from "../../models/image.js";

/** The form's values, keyed by the model's fields: a misspelled field fails type-checking. */
export type FormValues = { readonly [Field in keyof Image]?: unknown };

/** What the image form shows: a stored image or the values just entered, and their errors. */
export interface FormProps {
  values: FormValues;
  errors?: ValidationErrors | undefined;
}

/** The image form's fields and its Save button, shared by New and Edit. */
export function Form(props: FormProps) {
  const { values, errors } = props;
  return (
    <>
      {errors?.any() && (
        <div class="alert alert-danger" role="alert">
          <ul>
            {Object.values(errors.errors)
              .flat()
              .map((message) => (
                <li>{message}</li>
              ))}
          </ul>
        </div>
      )}
      <div class="field">
        <label for="image_caption">Caption</label>
        <input
          type="text"
          id="image_caption"
          name="caption"
          value={text(values.caption)}
          aria-invalid={errors?.get("caption").length ? "true" : undefined}
        />
      </div>
      <div class="field">
        <label for="image_file">File</label>
        <input
          type="file"
          id="image_file"
          name="file"
          accept={fileAccept(Image.schema.shape.file)}
          aria-invalid={errors?.get("file").length ? "true" : undefined}
        />
      </div>
      <button type="submit">Save</button>
    </>
  );
}

/**
 * A value as the text of a field: a string, number or boolean as sent or stored; "" for none, and
 * for a list or object sent in a field's place (stringifying a deeply nested one overflows the stack).
 */
function text(value: unknown): string {
  const type = typeof value;
  return type === "string" || type === "number" || type === "boolean" ? String(value) : "";
}
