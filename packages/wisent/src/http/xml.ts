import type { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";
import { HttpError } from "../base/http-error.js";
import { requireDependency } from "../base/require-dependency.js";
import { pluralize, singularize } from "../naming/index.js";
import { ValidationErrors } from "../validation/validation-errors.js";

interface XmlTools {
  readonly builder: XMLBuilder;
  readonly parser: XMLParser;
  readonly validator: typeof XMLValidator;
}

let tools: XmlTools | undefined;

/**
 * fast-xml-parser, loaded on the first XML request (its CommonJS build, so synchronously): it and
 * its dependencies are a tenth of the framework's start-up, which an app whose clients never ask
 * for XML should not pay (lazy-modules.test.ts).
 */
function xmlTools(): XmlTools {
  if (tools) return tools;
  const fxp = requireDependency<typeof import("fast-xml-parser")>("fast-xml-parser");
  tools = {
    builder: new fxp.XMLBuilder({
      attributeNamePrefix: "@_",
      ignoreAttributes: false,
      format: true,
      indentBy: "  ",
      suppressEmptyNode: true,
      suppressBooleanAttributes: false,
    }),
    parser: new fxp.XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      parseTagValue: false,
      trimValues: true,
    }),
    validator: fxp.XMLValidator,
  };
  return tools;
}

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Element names must start with a letter or `_` and hold no spaces or punctuation XML refuses. */
function elementName(key: string): string {
  const cleaned = key.replace(/[^\w.-]/g, "_");
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * Characters XML 1.0 cannot carry at all, not even as references: C0 controls other than tab,
 * newline and carriage return, U+FFFE/U+FFFF, and lone surrogates.
 */
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML refuses is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` as XML can carry it: every character XML 1.0 refuses (and every lone surrogate)
 * replaced by U+FFFD, so no stored value can make a document that does not parse. Models refuse
 * such text on the way in (see `validate`); this is for whatever came another way.
 *
 * @example
 * xmlSafeText("a\u0001b"); // "a\uFFFDb"
 */
export function xmlSafeText(text: string): string {
  return text.replace(NOT_XML_CHAR, "\uFFFD");
}

/** Turns plain data into fast-xml-parser's builder shape: null -> nil="true", lists wrapped. */
function toNode(value: unknown, name: string): unknown {
  if (value === null || value === undefined) return { "@_nil": "true" };
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const item = elementName(singularize(name) === name ? `${name}_item` : singularize(name));
    return { [item]: value.map((entry) => toNode(entry, item)) };
  }
  if (typeof value === "object") {
    const plain =
      typeof (value as { toJSON?: unknown }).toJSON === "function"
        ? (value as { toJSON(): unknown }).toJSON()
        : value;
    if (plain !== value) return toNode(plain, name);
    const node: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      if (entry === undefined) continue;
      node[elementName(key)] = toNode(entry, key);
    }
    return node;
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return xmlSafeText(value);
  return value;
}

/**
 * Renders data as XML with the JSON field names (docs/guides/api-and-openapi.md): one record as `<widget>...</widget>`,
 * a list as `<widgets><widget>...</widget></widgets>`, null as `<field nil="true"/>`, and
 * `ValidationErrors` as `<errors><error field="title">...</error></errors>`.
 *
 * @param data - a record, a list of records, or `ValidationErrors`
 * @param root - the element name of one record (a list's is its plural)
 * @returns the XML document, with its declaration
 * @example
 * toXml({ id: 1, title: "a", description: null }, "widget");
 * // <?xml ...?>\n<widget>\n  <id>1</id>\n  <title>a</title>\n  <description nil="true"/>\n</widget>
 */
export function toXml(data: unknown, root: string): string {
  if (data instanceof ValidationErrors) {
    const errors = Object.entries(data.errors).flatMap(([field, messages]) =>
      messages.map((message) => ({ "@_field": xmlSafeText(field), "#text": xmlSafeText(message) })),
    );
    return HEADER + xmlTools().builder.build({ errors: errors.length ? { error: errors } : "" });
  }
  const name = elementName(Array.isArray(data) ? pluralize(root) : root);
  return HEADER + xmlTools().builder.build({ [name]: toNode(data, name) });
}

/** Builds a document from fast-xml-parser's builder tree (attributes as `@_name`). */
export function xmlDocument(tree: Record<string, unknown>): string {
  return HEADER + xmlTools().builder.build(tree);
}

/**
 * Parses an XML request body into a plain object: the root element's children become the fields
 * (`<widget><title>a</title></widget>` -> `{ title: "a" }`), `nil="true"` becomes null.
 * Malformed XML is a 400 naming the line and the problem.
 * @param text - the XML document
 * @returns the root element's fields (`{}` for an empty root)
 * @throws HttpError 400 (`E_HTTP`) for malformed XML (naming the line), a document the parser
 *   refuses (external entities, nesting too deep), or more than one root element
 * @example parseXml("<widget><title>a</title></widget>"); // { title: "a" }
 */
export function parseXml(text: string): Record<string, unknown> {
  const verdict = xmlTools().validator.validate(text);
  if (verdict !== true) {
    const { line, msg } = verdict.err;
    throw new HttpError(400, `malformed XML body (line ${line}): ${msg}`);
  }
  let document: Record<string, unknown>;
  try {
    document = xmlTools().parser.parse(text) as Record<string, unknown>;
  } catch (cause) {
    // The validator passes some documents the parser then refuses (external entities, nesting
    // deeper than its limit): still the client's mistake, not a 500.
    throw new HttpError(400, `malformed XML body: ${(cause as Error).message}`, { cause });
  }
  const roots = Object.keys(document).filter((key) => !key.startsWith("?"));
  if (roots.length !== 1) throw new HttpError(400, "malformed XML body: expected one root element");
  const root = fromNode(document[roots[0]!]);
  if (root === null || typeof root !== "object" || Array.isArray(root)) return {};
  return root as Record<string, unknown>;
}

function fromNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromNode);
  if (node === null || typeof node !== "object") return node;
  const record = node as Record<string, unknown>;
  if (record["@_nil"] === "true") return null;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith("@_")) continue;
    result[key] = fromNode(value);
  }
  if (Object.keys(result).length === 1 && "#text" in result) return result["#text"];
  return result;
}
