import { ButtonTo, FileLink, Paginator, type PaginatorProps, usePage, usePaths } from "wisent/jsx";
import type { Image } from "../../models/image.js";
import type { Widget } from "../../models/widget.js";

/** Props of the image list. */
export interface IndexProps {
  widget: Widget;
  images: Image[];
  paginator: PaginatorProps["paginator"];
}

/** GET /widgets/{widget_id}/images: the images, one page at a time. */
export function Index(props: IndexProps) {
  const { widget, images, paginator } = props;
  const paths = usePaths();
  return (
    <>
      <div class="page-header">
        <h1>Images of {widget.title}</h1>
        <a href={paths.widgetPath({ widget_id: widget.id })}>Back to Widget</a>
        <a class="btn" href={paths.newWidgetImagesPath({ widget_id: widget.id })}>
          Create New Image
        </a>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Caption</th>
              <th>File</th>
              <th class="actions">Actions</th>
            </tr>
          </thead>
          <tbody>
            {images.map((image) => (
              <tr>
                <td>{image.caption}</td>
                <td>{<FileLink file={image.file} variant="thumb" />}</td>
                <td class="actions">
                  <a href={paths.widgetImagePath({ widget_id: widget.id, image_id: image.id })}>
                    View
                  </a>{" "}
                  <a href={paths.editWidgetImagePath({ widget_id: widget.id, image_id: image.id })}>
                    Edit
                  </a>{" "}
                  <ButtonTo
                    action={paths.widgetImagePath({ widget_id: widget.id, image_id: image.id })}
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
