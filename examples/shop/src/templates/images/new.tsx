import { CsrfField, usePaths } from "wisent/jsx";
import type { Widget } from "../../models/widget.js";
import { Form, type FormProps } from "./_form.js";

/** Props of the new-image page. */
export interface NewProps extends FormProps {
  widget: Widget;
}

/** GET /widgets/{widget_id}/images/new, and POST /widgets/{widget_id}/images with errors: the form for a new image. */
export function New(props: NewProps) {
  const { widget } = props;
  const paths = usePaths();
  return (
    <>
      <h1>New Image</h1>
      <form
        action={paths.widgetImagesPath({ widget_id: widget.id })}
        method="post"
        enctype="multipart/form-data"
      >
        <CsrfField />
        <Form values={props.values} errors={props.errors} />
        <a href={paths.widgetImagesPath({ widget_id: widget.id })} class="btn btn-secondary">
          Cancel
        </a>
      </form>
    </>
  );
}
