import { ButtonTo, FileLink, usePaths } from "wisent/jsx";
import type { Image } from "../../models/image.js";
import type { Widget } from "../../models/widget.js";

/** Props of the image page. */
export interface ShowProps {
  widget: Widget;
  image: Image;
}

/** GET /widgets/{widget_id}/images/{image_id}: one image. */
export function Show(props: ShowProps) {
  const { widget, image } = props;
  const paths = usePaths();
  return (
    <>
      <h1>Image Details</h1>
      <div class="actions-bar">
        <a href={paths.widgetImagesPath({ widget_id: widget.id })}>Back to all Images</a>{" "}
        <a href={paths.editWidgetImagePath({ widget_id: widget.id, image_id: image.id })}>Edit</a>{" "}
        <ButtonTo
          action={paths.widgetImagePath({ widget_id: widget.id, image_id: image.id })}
          method="DELETE"
          confirm="Are you sure?"
        >
          Destroy
        </ButtonTo>{" "}
        {/* wisent:children (links to nested resources go above this line) */}
      </div>
      <dl>
        <dt>Caption</dt>
        <dd>{image.caption}</dd>
        <dt>File</dt>
        <dd>{<FileLink file={image.file} variant="thumb" />}</dd>
      </dl>
    </>
  );
}
