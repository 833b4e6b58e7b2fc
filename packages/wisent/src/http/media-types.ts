/** The three response formats Wisent renders. */
export type Format = "html" | "json" | "xml";

/**
 * The media type of a Content-Type (or Accept range) value, without its parameters, in lower
 * case: `Text/HTML; charset=utf-8` -> `text/html`.
 */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(";", 1)[0]!.trim().toLowerCase();
}

/**
 * The format a media type stands for, or undefined when it is none of ours.
 * `application/xhtml+xml` is HTML (browsers send it); `+json`/`+xml` suffixes count as their base.
 */
export function formatOfMediaType(mediaType: string): Format | undefined {
  const type = mediaTypeOf(mediaType);
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type === "text/json" || type.endsWith("+json")) return "json";
  if (type === "application/xml" || type === "text/xml" || type.endsWith("+xml")) return "xml";
  return undefined;
}

/** The media types each format answers with, most specific first (used to match `Accept`). */
export const MEDIA_TYPES: Record<Format, readonly string[]> = {
  html: ["text/html", "application/xhtml+xml"],
  json: ["application/json", "text/json"],
  xml: ["application/xml", "text/xml"],
};
