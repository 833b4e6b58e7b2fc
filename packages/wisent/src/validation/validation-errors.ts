import { WisentError } from "../base/wisent-error.js";

/**
 * Validation failures keyed by field, in Buffalo's shape: `{"errors":{"title":["Title can not be blank."]}}`.
 * Throwing it answers 422 through `errorResponse`. Renderers know it: JSON as that object, XML as `<errors><error field="title">...</error></errors>`.
 *
 * @example
 * const errors = new ValidationErrors({ title: ["Title can not be blank."] });
 * if (errors.any()) return c.respond(422, { json: errors, xml: errors, html: () => <New errors={errors} /> });
 */
export class ValidationErrors extends WisentError {
  // An Error so that a thrown ValidationErrors reaches Hono's onError (it only catches Errors).
  override name = "ValidationErrors";
  /** @param errors - the messages by field (empty: valid so far) */
  constructor(readonly errors: Record<string, string[]> = {}) {
    super("E_VALIDATION", "validation failed");
  }

  /**
   * `errors` with a message added for `field`, made first when there are none yet: so valid input
   * makes no ValidationErrors (an Error: making one captures a stack trace, about 3 us a write).
   * @param errors - the errors found so far, if any
   * @param field - the field's name (`title`; `base` for the record as a whole)
   * @param message - the full sentence shown (`Title can not be blank.`)
   * @returns `errors`, or the new ValidationErrors holding the message
   * @example
   * let errors: ValidationErrors | undefined;
   * if (taken) errors = ValidationErrors.adding(errors, "isbn", "Isbn has already been taken.");
   */
  static adding(
    errors: ValidationErrors | undefined,
    field: string,
    message: string,
  ): ValidationErrors {
    const found = errors ?? new this();
    found.add(field, message);
    return found;
  }

  /**
   * Adds a message for a field.
   * @param field - the field's name (`title`; `base` for the record as a whole)
   * @param message - the full sentence shown (`Title can not be blank.`)
   */
  add(field: string, message: string): void {
    const list = this.errors[field];
    if (list) list.push(message);
    else this.errors[field] = [message];
  }

  /**
   * The messages for one field.
   * @param field - the field's name
   * @returns its messages (empty when it is valid)
   */
  get(field: string): string[] {
    return this.errors[field] ?? [];
  }

  /**
   * Whether any field has a message.
   * @returns true when at least one field has a message
   */
  any(): boolean {
    return Object.keys(this.errors).length > 0;
  }

  /**
   * The JSON body of a 422: `{"errors":{"title":["Title can not be blank."]}}`.
   * @returns the errors under `errors`
   */
  toJSON(): { errors: Record<string, string[]> } {
    return { errors: this.errors };
  }
}
