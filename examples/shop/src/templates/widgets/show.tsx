import { ButtonTo, LiveUpdates, usePaths } from "wisent/jsx";
import type { Widget } from "../../models/widget.js";

/** Props of the widget page. */
export interface ShowProps {
  widget: Widget;
}

/** GET /widgets/{widget_id}: one widget. */
export function Show(props: ShowProps) {
  const { widget } = props;
  const paths = usePaths();
  return (
    <>
      <LiveUpdates />
      <h1>Widget Details</h1>
      <div class="actions-bar">
        <a href={paths.widgetsPath()}>Back to all Widgets</a>{" "}
        <a href={paths.editWidgetPath({ widget_id: widget.id })}>Edit</a>{" "}
        <ButtonTo
          action={paths.widgetPath({ widget_id: widget.id })}
          method="DELETE"
          confirm="Are you sure?"
        >
          Destroy
        </ButtonTo>{" "}
        <a href={paths.widgetImagesPath({ widget_id: widget.id })}>Images</a>{" "}
        {/* wisent:children (links to nested resources go above this line) */}
      </div>
      <dl>
        <dt>Title</dt>
        <dd>{widget.title}</dd>
        <dt>Description</dt>
        <dd>{widget.description}</dd>
      </dl>
    </>
  );
}
