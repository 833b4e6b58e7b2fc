/** The smallest valid PNG: one pixel. */
const ONE_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * A real PNG image (one pixel) as a `File` named `name`, for tests that upload an image: the app
 * types files by their bytes, so a made-up string or an empty file would be refused. Each call
 * makes a new File.
 *
 * @example
 * await api.books.create({ title: "Kindred", cover: samplePng("kindred.png") });
 * await browser.post("/books", { form: { title: "Kindred", cover: samplePng() } });
 */
export function samplePng(name = "image.png"): File {
  return new File([Buffer.from(ONE_PIXEL_PNG, "base64")], name, { type: "image/png" });
}
