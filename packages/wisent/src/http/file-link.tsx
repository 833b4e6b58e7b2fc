/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
import type { FC } from "../jsx/html.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { Fragment, h } from "../jsx/jsx-runtime.js";
import type { StoredAttachment } from "../storage/stored-attachment.js";

/**
 * A stored file on a page: an image (raster types only, never SVG) as `<img>`, anything else as a
 * download link named by the file's name; nothing for no file. With `variant`, an image shows
 * that variant (made by sharp on first request, see `imageVariant`), linked to the original.
 *
 * @param props - the `file` (a record's attachment field), the image's `alt` text (default the
 *   file's name) and the image `variant` to show
 * @returns the image or link, or nothing for no file
 * @example
 * <FileLink file={image.file} />
 * <FileLink file={image.file} variant="thumb" />
 */
export const FileLink: FC<{
  file: StoredAttachment | null | undefined;
  alt?: string;
  variant?: string;
}> = (props) => {
  const { file, variant } = props;
  if (!file) return null;
  if (file.isImage && variant) {
    return (
      <a href={file.url}>
        <img src={file.variantUrl(variant)} alt={props.alt ?? file.name} class="attachment" />
      </a>
    );
  }
  if (file.isImage) {
    return <img src={file.url} alt={props.alt ?? file.name} class="attachment" />;
  }
  return (
    <a href={file.url} download={file.name}>
      {file.name}
    </a>
  );
};
