import { CsrfField, usePaths } from "wisent/jsx";
import { Form, type FormProps } from "./_form.js";

/** GET /widgets/new, and POST /widgets with errors: the form for a new widget. */
export function New(props: FormProps) {
  const paths = usePaths();
  return (
    <>
      <h1>New Widget</h1>
      <form action={paths.widgetsPath()} method="post">
        <CsrfField />
        <Form values={props.values} errors={props.errors} />
        <a href={paths.widgetsPath()} class="btn btn-secondary">
          Cancel
        </a>
      </form>
    </>
  );
}
