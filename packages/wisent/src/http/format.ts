import type { Context } from "hono";
import { pathFormatOf } from "../app/path-format.js";
import { BoundedMemo } from "./bounded-memo.js";
import { HttpError } from "./http-error.js";
import { type Format, formatOfMediaType, MEDIA_TYPES } from "./media-types.js";
import { requestHeader } from "./request-header.js";
import { addResponseHeaders } from "./response-headers.js";

export type { Format } from "./media-types.js";

const FORMATS: readonly Format[] = ["html", "json", "xml"];
/** The commonest one-type Accept headers, answered without parsing. */
const EXACT_ACCEPT = new Map<string, Format>([
  ["application/json", "json"],
  ["application/xml", "xml"],
  ["text/html", "html"],
]);

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  index: number;
}

/** Parses an `Accept` header into media ranges with their q-values (order kept for ties). */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(",").forEach((part, index) => {
    const [range, ...params] = part.split(";");
    const [type, subtype] = (range ?? "").trim().toLowerCase().split("/");
    if (!type || !subtype) return;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key?.trim().toLowerCase() === "q") {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
      }
    }
    ranges.push({ type, subtype, q, index });
  });
  return ranges;
}

/** How a format fares against one Accept header: the q of its most specific range. */
function judge(format: Format, ranges: MediaRange[]) {
  let best: { q: number; specificity: number; index: number } | undefined;
  for (const range of ranges) {
    let specificity = -1;
    if (range.type === "*" && range.subtype === "*") specificity = 0;
    else if (range.subtype === "*") {
      if (MEDIA_TYPES[format].some((type) => type.startsWith(`${range.type}/`))) specificity = 1;
    } else if (formatOfMediaType(`${range.type}/${range.subtype}`) === format) specificity = 2;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) {
      best = { q: range.q, specificity, index: range.index };
    }
  }
  return best;
}

/** What an Accept header says on its own: its ranges and the format it names explicitly, if any. */
interface AcceptVerdict {
  ranges: MediaRange[];
  explicit: Format | undefined;
}

/** Accept headers repeat (one per client kind), so their verdicts are remembered, boundedly. */
const verdicts = new BoundedMemo<string, AcceptVerdict>(200);

const verdictOf = (accept: string): AcceptVerdict => verdicts.get(accept, judgeAccept);

function judgeAccept(accept: string): AcceptVerdict {
  const ranges = parseAccept(accept);
  let explicit: { format: Format; q: number; index: number } | undefined;
  for (const format of FORMATS) {
    const found = judge(format, ranges);
    if (!found || found.specificity < 2 || found.q <= 0) continue;
    if (
      !explicit ||
      found.q > explicit.q ||
      (found.q === explicit.q && found.index < explicit.index)
    ) {
      explicit = { format, q: found.q, index: found.index };
    }
  }
  return { ranges, explicit: explicit?.format };
}

/** Where a request's negotiated format is kept (a private key among the context's variables). */
const NEGOTIATED = Symbol("wisent.format") as unknown as "wisent";

/**
 * Picks the response format of a request, as DESIGN.md orders it:
 * 1. the path extension (`/widgets/1.json`, stripped by the App before routing);
 * 2. `?format=html|json|xml` (any other value is a 406 naming it);
 * 3. `Accept`, by q-value then specificity (`application/xhtml+xml` is HTML; `q=0` refuses);
 * 4. the request's own `Content-Type` when it is JSON or XML;
 * 5. HTML, or JSON in an API app (`c.get("wisent").api`).
 * Wildcards (`*∕*`, `text/*`) only decide among steps 4-5; a format refused with `q=0` is never
 * chosen (406 when `Accept` refuses them all). When steps 3-5 decide, the answer carries
 * `Vary: Accept` (see {@link formatVariesOnAccept}). The result is cached per request.
 *
 * @example
 * app.get("/ping", (c) => (negotiateFormat(c) === "json" ? c.json({ ok: true }) : c.text("ok")));
 */
export function negotiateFormat(c: Context): Format {
  const cached = c.get(NEGOTIATED) as unknown as Format | undefined;
  if (cached) return cached;
  const format = decide(c);
  c.set(NEGOTIATED, format as never);
  return format;
}

/** Set when the request's format followed its headers (Accept, Content-Type). */
const VARIES = Symbol("wisent.formatVariesOnAccept");
type Varied = Context & { [VARIES]?: boolean };
const VARY_ACCEPT = Object.freeze({ vary: "Accept" });

/**
 * True when this request's format was chosen from its `Accept` header (no path extension, no
 * `?format=`): its answer must say `Vary: Accept`, so a shared cache never hands the JSON to a
 * browser. `c.respond`, `redirectTo` and error answers send it.
 */
export function formatVariesOnAccept(c: Context): boolean {
  return (c as Varied)[VARIES] === true;
}

function followsHeaders(c: Context): void {
  (c as Varied)[VARIES] = true;
  // Handed to a response `c.respond` makes with plain headers.
  addResponseHeaders(c, VARY_ACCEPT);
}

function decide(c: Context): Format {
  const raw = c.req.raw;
  const fromPath = pathFormatOf(raw);
  if (fromPath) return fromPath;

  if (raw.url.includes("?")) {
    const requested = c.req.query("format");
    if (requested !== undefined && requested !== "") {
      const format = requested.toLowerCase();
      if ((FORMATS as readonly string[]).includes(format)) return format as Format;
      throw new HttpError(406, `unknown format "${requested}": use html, json or xml`);
    }
  }

  followsHeaders(c);
  const accept = requestHeader(c, "accept");
  const exact = accept ? EXACT_ACCEPT.get(accept) : undefined;
  if (exact) return exact;
  const verdict = accept && accept.trim() !== "" ? verdictOf(accept) : undefined;
  if (verdict?.explicit) return verdict.explicit;

  const contentType = requestHeader(c, "content-type");
  const fromBody = contentType ? formatOfMediaType(contentType) : undefined;
  const fallback: Format = c.get("wisent")?.api === true ? "json" : "html";
  const first: Format = fromBody === "json" || fromBody === "xml" ? fromBody : fallback;
  if (!verdict || verdict.ranges.length === 0) return first;
  const candidates = [first, fallback, ...FORMATS];
  for (const format of candidates) {
    const found = judge(format, verdict.ranges);
    if (found && found.q > 0) return format;
  }
  // Nothing we make is named (e.g. `Accept: image/png`): answer a format the header did not
  // refuse with q=0, as browsers and tools send odd Accept headers (respond() still refuses
  // unoffered formats); when it refused them all (`*/*;q=0`), 406.
  for (const format of candidates) {
    if (judge(format, verdict.ranges) === undefined) return format;
  }
  throw new HttpError(
    406,
    `not acceptable: Accept: ${accept} refuses every format this app answers (html, json, xml)`,
  );
}
