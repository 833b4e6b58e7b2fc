import type { ValidationErrors } from "wisent";
import type { Widget } from "../../models/widget.js";

/** The form's values, keyed by the model's fields: a misspelled field fails type-checking. */
export type FormValues = { readonly [Field in keyof Widget]?: unknown };

/** What the widget form shows: a stored widget or the values just entered, and their errors. */
export interface FormProps {
  values: FormValues;
  errors?: ValidationErrors | undefined;
}

/** The widget form's fields and its Save button, shared by New and Edit. */
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
        <label for="widget_title">Title</label>
        <input
          type="text"
          id="widget_title"
          name="title"
          value={text(values.title)}
          aria-invalid={errors?.get("title").length ? "true" : undefined}
        />
      </div>
      <div class="field">
        <label for="widget_description">Description</label>
        <textarea
          id="widget_description"
          name="description"
          rows={10}
          aria-invalid={errors?.get("description").length ? "true" : undefined}
        >
          {text(values.description)}
        </textarea>
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
