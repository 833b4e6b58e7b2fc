import {
  ButtonTo,
  domId,
  LiveUpdates,
  Paginator,
  type PaginatorProps,
  usePage,
  usePaths,
} from "wisent/jsx";
import { Widget } from "../../models/widget.js";

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
          <tbody id="widgets">
            {widgets.map((widget) => (
              <Row record={widget} />
            ))}
          </tbody>
        </table>
      </div>
      <Paginator paginator={paginator} url={usePage().c.req.url} />
    </>
  );
}

/**
 * One widget's row. Its id (`domId`: `widget_<id>`) is what live pages target: with
 * `live: { row: Row }` on the resource, the list pages get this row appended, replaced and
 * removed instead of refreshing (docs/guides/live-pages.md).
 */
export function Row(props: { record: Widget }) {
  const { record: widget } = props;
  const paths = usePaths();
  return (
    <tr id={domId(Widget, widget)}>
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
  );
}
