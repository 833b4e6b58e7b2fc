import {
  ButtonTo,
  LiveUpdates,
  Paginator,
  type PaginatorProps,
  usePage,
  usePaths,
} from "wisent/jsx";
import type { Widget } from "../../models/widget.js";

/** Props of the widget list. */
export interface IndexProps {
  widgets: Widget[];
  paginator: PaginatorProps["paginator"];
}

/** GET /widgets: the widgets, one page at a time. */
export function Index(props: IndexProps) {
  const { widgets, paginator } = props;
  const paths = usePaths();
  return (
    <>
      <LiveUpdates />
      <div class="page-header">
        <h1>Widgets</h1>
        <a class="btn" href={paths.newWidgetsPath()}>
          Create New Widget
        </a>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Title</th>
              <th class="actions">Actions</th>
            </tr>
          </thead>
          <tbody>
            {widgets.map((widget) => (
              <tr>
                <td>{widget.title}</td>
                <td class="actions">
                  <a href={paths.widgetPath({ widget_id: widget.id })}>View</a>{" "}
                  <a href={paths.editWidgetPath({ widget_id: widget.id })}>Edit</a>{" "}
                  <ButtonTo
                    action={paths.widgetPath({ widget_id: widget.id })}
                    method="DELETE"
                    confirm="Are you sure?"
                  >
                    Destroy
                  </ButtonTo>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paginator paginator={paginator} url={usePage().c.req.url} />
    </>
  );
}
