import { CsrfField, usePaths } from "wisent/jsx";
import type { Image } from "../../models/image.js";
import type { Widget } from "../../models/widget.js";
import { Form, type FormProps } from "./_form.js";

/** Props of the edit page: the stored image and the values shown. */
export interface EditProps extends FormProps {
  widget: Widget;
  image: Image;
}

/** GET /widgets/{widget_id}/images/{image_id}/edit, and PUT with errors: the form for an image. */
export function Edit(props: EditProps) {
  const { widget, image } = props;
  const paths = usePaths();
  return (
    <>
      <h1>Edit Image</h1>
      <form
        action={paths.widgetImagePath({ widget_id: widget.id, image_id: image.id })}
        method="post"
        enctype="multipart/form-data"
      >
        <input type="hidden" name="_method" value="PUT" />
        <CsrfField />
        <Form values={props.values} errors={props.errors} />
        <a
          href={paths.widgetImagePath({ widget_id: widget.id, image_id: image.id })}
          class="btn btn-secondary"
        >
          Cancel
        </a>
      </form>
    </>
  );
}
