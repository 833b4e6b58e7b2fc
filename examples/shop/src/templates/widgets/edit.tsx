import { CsrfField, usePaths } from "wisent/jsx";
import type { Widget } from "../../models/widget.js";
import { Form, type FormProps } from "./_form.js";

/** Props of the edit page: the stored widget and the values shown. */
export interface EditProps extends FormProps {
  widget: Widget;
}

/** GET /widgets/{widget_id}/edit, and PUT with errors: the form for a widget. */
export function Edit(props: EditProps) {
  const { widget } = props;
  const paths = usePaths();
  return (
    <>
      <h1>Edit Widget</h1>
      <form action={paths.widgetPath({ widget_id: widget.id })} method="post">
        <input type="hidden" name="_method" value="PUT" />
        <CsrfField />
        <Form values={props.values} errors={props.errors} />
        <a href={paths.widgetPath({ widget_id: widget.id })} class="btn btn-secondary">
          Cancel
        </a>
      </form>
    </>
  );
}
