import type { Context } from "hono";
import { BoundedMemo } from "../base/bounded-memo.js";
import { HttpError } from "../base/http-error.js";
import { FORMAT_KEY, FORMAT_VARIES_ON_ACCEPT_KEY } from "../base/symbols.js";
import { headerPart, setHeaders } from "../kernel/response-headers.js";
import { type Format, formatOfMediaType, MEDIA_TYPES } from "./media-types.js";
import { pathFormatOf } from "./path-format.js";
import { requestHeader } from "./request-header.js";

export type { Format } from "./media-types.js";

/** The three formats, in a web app's order of preference (the default `offered`). */
export const FORMATS: readonly Format[] = ["html", "json", "xml"];
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
  let best: { q: number; specificity: number } | undefined;
  for (const range of ranges) {
    let specificity = -1;
    if (range.type === "*" && range.subtype === "*") specificity = 0;
    else if (range.subtype === "*") {
      // Against the type the answer is sent as: `text/*` is HTML, not `application/xml`.
      if (MEDIA_TYPES[format][0]!.startsWith(`${range.type}/`)) specificity = 1;
    } else if (formatOfMediaType(`${range.type}/${range.subtype}`) === format) specificity = 2;
    if (specificity < 0) continue;
    // RFC 9110 12.5.1: the most specific range that matches decides the type's weight.
    if (!best || specificity > best.specificity) best = { q: range.q, specificity };
  }
  return best;
}

/**
 * The best of `candidates` (in order of preference on a tie) that the ranges accept: the highest
 * q (RFC 9110 12.4.2; q=0 refuses), then the one named most specifically (`application/json`
 * beats the `*∕*` of axios' `application/json, text/plain, *∕*`), then the first candidate.
 * No ranges at all accept everything. Undefined when none is acceptable.
 */
function bestOf(candidates: readonly Format[], ranges: MediaRange[]): Format | undefined {
  if (ranges.length === 0) return candidates[0];
  let best: { format: Format; q: number; specificity: number } | undefined;
  for (const format of candidates) {
    const found = judge(format, ranges);
    if (!found || found.q <= 0) continue;
    if (!best || found.q > best.q || (found.q === best.q && found.specificity > best.specificity)) {
      best = { format, q: found.q, specificity: found.specificity };
    }
  }
  return best?.format;
}

/** Accept headers repeat (one per client kind), so their parsed ranges are remembered, boundedly. */
const parsed = new BoundedMemo<string, MediaRange[]>(200);

const rangesOf = (accept: string): MediaRange[] => parsed.get(accept, parseAccept);

/** Where a request's negotiated format is kept (a private key among the context's variables). */
const NEGOTIATED = FORMAT_KEY as unknown as "wisent";

/**
 * Picks the response format of a request, in the order docs/guides/api-and-openapi.md gives:
 * 1. the path extension (`/widgets/1.json`, stripped by the App before routing);
 * 2. `?format=html|json|xml` (any other value is a 406 naming it);
 * 3. `Accept`, as RFC 9110 12.5.1 says: each format weighs the q of the most specific range that
 *    matches it (`*∕*`, `text/*` and `application/xhtml+xml` included; `q=0` refuses), and the
 *    heaviest acceptable format wins; on a tie, the one named most specifically, then the
 *    request's own `Content-Type` when it is JSON or XML, then the app's first format (HTML, or
 *    JSON in an API app, `c.get("wisent").api`). No `Accept` accepts everything.
 *
 * `offered` narrows the choice to the formats an action answers (`c.respond` passes its own):
 * the best of those the client accepts, so a browser's `text/html, *∕*;q=0.8` gets JSON from
 * an action that answers only JSON. A 406 names what is available when the client accepts none
 * of them (`Accept: text/plain`, `image/png`), or asked for one by extension or `?format=`.
 * When steps 3 decides, the answer carries `Vary: Accept` (see `formatVariesOnAccept`).
 * The choice among all three formats is cached per request.
 *
 * @param c - the request's context
 * @param offered - the formats the action answers (default all three)
 * @returns `html`, `json` or `xml`
 * @throws HttpError 406 (`E_HTTP`) when the client accepts none of `offered`, names one not
 *   offered by extension or `?format=`, or gives an unknown `?format=`
 * @example
 * app.get("/ping", (c) => (negotiateFormat(c) === "json" ? c.json({ ok: true }) : c.text("ok")));
 * negotiateFormat(c, ["json", "xml"]); // "json" for curl's `*∕*`, "xml" for `application/xml`
 */
export function negotiateFormat(c: Context, offered: readonly Format[] = FORMATS): Format {
  if (offered === FORMATS) {
    const cached = c.get(NEGOTIATED) as unknown as Format | undefined;
    if (cached) return cached;
    const format = decide(c, FORMATS);
    c.set(NEGOTIATED, format as never);
    return format;
  }
  return decide(c, offered);
}

/** Set when the request's format followed its headers (Accept, Content-Type). */
const VARIES: typeof FORMAT_VARIES_ON_ACCEPT_KEY = FORMAT_VARIES_ON_ACCEPT_KEY;
type Varied = Context & { [VARIES]?: boolean };
// A Vary the answer chose itself stays (redirects and error answers set this one themselves).
const VARY_ACCEPT = headerPart({ vary: "Accept" }, { keep: () => true });

/**
 * True when this request's format was chosen from its `Accept` header (no path extension, no
 * `?format=`): its answer must say `Vary: Accept`, so a shared cache never hands the JSON to a
 * browser. `c.respond`, `redirectTo` and error answers send it.
 */
export function formatVariesOnAccept(c: Context): boolean {
  return (c as Varied)[VARIES] === true;
}

function followsHeaders(c: Context): void {
  if ((c as Varied)[VARIES] === true) return;
  (c as Varied)[VARIES] = true;
  setHeaders(c, VARY_ACCEPT);
}

const listed = (formats: readonly Format[]) => formats.join(", ") || "nothing";

function named(format: Format, offered: readonly Format[], how: string): Format {
  if (offered.includes(format)) return format;
  throw new HttpError(
    406,
    `not acceptable: ${format} was asked for (${how}), this action answers ${listed(offered)}`,
  );
}

/** Candidates in their order on a tie: the body's format, the app's first, the rest. */
function tieOrder(c: Context, offered: readonly Format[]): readonly Format[] {
  const api = c.get("wisent")?.api === true;
  const contentType = requestHeader(c, "content-type");
  const fromBody = contentType ? formatOfMediaType(contentType) : undefined;
  const first: Format | undefined =
    fromBody === "json" || fromBody === "xml" ? fromBody : undefined;
  const order = api ? API_ORDER : WEB_ORDER;
  if (first === undefined && offered === FORMATS) return order;
  const ordered: Format[] = first !== undefined && offered.includes(first) ? [first] : [];
  for (const format of order) {
    if (format !== first && offered.includes(format)) ordered.push(format);
  }
  return ordered;
}

const WEB_ORDER: readonly Format[] = FORMATS;
const API_ORDER: readonly Format[] = ["json", "xml", "html"];

function decide(c: Context, offered: readonly Format[]): Format {
  const raw = c.req.raw;
  const fromPath = pathFormatOf(raw);
  if (fromPath) return named(fromPath, offered, `.${fromPath}`);

  if (raw.url.includes("?")) {
    const requested = c.req.query("format");
    if (requested !== undefined && requested !== "") {
      const format = requested.toLowerCase();
      if ((FORMATS as readonly string[]).includes(format)) {
        return named(format as Format, offered, `?format=${format}`);
      }
      throw new HttpError(406, `unknown format "${requested}": use html, json or xml`);
    }
  }

  followsHeaders(c);
  const accept = requestHeader(c, "accept");
  const exact = accept ? EXACT_ACCEPT.get(accept) : undefined;
  if (exact && offered.includes(exact)) return exact;
  const ranges = accept && accept.trim() !== "" ? rangesOf(accept) : [];
  const chosen = bestOf(tieOrder(c, offered), ranges);
  if (chosen) return chosen;
  throw new HttpError(
    406,
    `not acceptable: Accept: ${accept} accepts none of the formats this ${offered === FORMATS ? "app" : "action"} answers (${listed(offered)})`,
  );
}
