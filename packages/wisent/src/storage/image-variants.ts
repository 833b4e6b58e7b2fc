import { Readable } from "node:stream";
import type createSharp from "sharp";
import type { Sharp } from "sharp";
import { HttpError } from "../base/http-error.js";
import { WisentError } from "../base/wisent-error.js";
import type { AppStorage } from "./app-storage.js";
import { optionalDependency } from "./optional-dependency.js";
import { INLINE_IMAGES, variantKey } from "./stored-attachment.js";

/** How a variant is made from an image: a box it is fitted into, written as WebP. */
export interface ImageVariantOptions {
  /** Largest width, in pixels. */
  readonly width: number;
  /** Largest height, in pixels. */
  readonly height: number;
  /**
   * `inside` (default): the whole image, scaled down to fit the box; `cover`: the box filled,
   * the image cropped around its centre (square thumbnails).
   */
  readonly fit?: "inside" | "cover";
  /** WebP quality, 1-100 (default 80). */
  readonly quality?: number;
}

/** The variants every app has: `thumb`, for lists. */
const DEFAULT_VARIANTS: Readonly<Record<string, ImageVariantOptions>> = {
  thumb: { width: 320, height: 320, fit: "inside" },
};

const variants = new Map<string, ImageVariantOptions>(Object.entries(DEFAULT_VARIANTS));

/** Variant names: they become storage keys and URL values. */
const NAME = /^[a-z0-9_-]{1,50}$/;

/**
 * Declares (or redefines) a named image variant, made by `sharp` the first time it is asked for
 * (`file.variantUrl("card")`, `<FileLink file={...} variant="card" />`) and kept in the storage
 * beside the image. `thumb` (320x320, fitted inside) exists from the start.
 *
 * @param name - 1-50 of a-z, 0-9, `_` and `-` (it becomes part of storage keys and URLs)
 * @param options - `width` and `height` (1-10000), `fit` and WebP `quality`
 * @throws WisentError `E_INVALID_ARGUMENT` when the name or a side is out of range
 * @example
 * imageVariant("card", { width: 640, height: 360, fit: "cover" });
 */
export function imageVariant(name: string, options: ImageVariantOptions): void {
  if (!NAME.test(name)) {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `image variant name "${name}" must be 1-50 of a-z, 0-9, _ and -`,
    );
  }
  for (const side of ["width", "height"] as const) {
    const value = options[side];
    if (!Number.isInteger(value) || value < 1 || value > 10_000) {
      throw new WisentError(
        "E_INVALID_ARGUMENT",
        `image variant "${name}": ${side} must be a whole number from 1 to 10000`,
      );
    }
  }
  variants.set(name, options);
}

/** Forgets the variants declared with {@link imageVariant}; `thumb` is back to its default (tests). */
export function resetImageVariants(): void {
  variants.clear();
  for (const [name, options] of Object.entries(DEFAULT_VARIANTS)) variants.set(name, options);
}

/** Variants being made in this process, so that concurrent first requests make each once. */
const making = new Map<string, Promise<void>>();

/**
 * The storage key of the variant `name` of the stored image `key` (of type `type`): made with
 * `sharp` and stored on the first request, read from the storage afterwards. An unknown variant,
 * or a file that is not a raster image, is a 400 naming the `variant` parameter; bytes sharp cannot
 * read a 422. Without sharp installed it fails naming `npm install sharp`.
 */
export async function storedVariant(
  storage: AppStorage,
  key: string,
  type: string,
  name: string,
): Promise<string> {
  const options = variants.get(name);
  if (!options) {
    const known = [...variants.keys()].join(", ");
    throw new HttpError(400, `variant "${name.slice(0, 50)}" is not one of: ${known}`);
  }
  if (!INLINE_IMAGES.has(type)) {
    throw new HttpError(400, `variant "${name}" is made of images only; this file is ${type}`);
  }
  const target = variantKey(key, name, "webp");
  if (await storage.exists(target)) return target;
  let made = making.get(target);
  if (!made) {
    made = makeVariant(storage, key, target, options).finally(() => making.delete(target));
    making.set(target, made);
  }
  await made;
  return target;
}

async function makeVariant(
  storage: AppStorage,
  key: string,
  target: string,
  options: ImageVariantOptions,
): Promise<void> {
  const sharp = optionalDependency<typeof createSharp>("sharp", "an image variant", ["sharp"]);
  if (!(await storage.exists(key))) throw new HttpError(404, `file not found: ${key}`);
  const source = await storage.read(key);
  const resize: Sharp = sharp()
    // Turned as the camera held it (EXIF orientation), which is then dropped with the metadata.
    .rotate()
    .resize({
      width: options.width,
      height: options.height,
      fit: options.fit ?? "inside",
      withoutEnlargement: true,
    })
    .webp({ quality: options.quality ?? 80 });
  let bytes: Buffer;
  try {
    bytes = await new Promise<Buffer>((resolve, reject) => {
      source.once("error", reject);
      source.pipe(resize);
      resize.toBuffer().then(resolve, reject);
    });
  } catch (cause) {
    source.destroy();
    throw new HttpError(
      422,
      `variant could not be made: the image cannot be read (${(cause as Error).message})`,
      { cause },
    );
  }
  await storage.put(target, Readable.from([bytes]), {
    contentType: "image/webp",
    size: bytes.length,
  });
}
