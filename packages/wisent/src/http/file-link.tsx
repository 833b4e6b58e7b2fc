/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
import type { FC } from "../jsx/html.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { Fragment, h } from "../jsx/jsx-runtime.js";
import type { StoredAttachment } from "../storage/stored-attachment.js";

/**
 * A stored file on a page: an image (raster types only, never SVG) as `<img>`, anything else as a
 * download link named by the file's name; nothing for no file.
 *
 * @example
 * <FileLink file={image.file} />
 */
export const FileLink: FC<{ file: StoredAttachment | null | undefined; alt?: string }> = (
  props,
) => {
  const { file } = props;
  if (!file) return null;
  if (file.isImage) {
    return <img src={file.url} alt={props.alt ?? file.name} class="attachment" />;
  }
  return (
    <a href={file.url} download={file.name}>
      {file.name}
    </a>
  );
};
