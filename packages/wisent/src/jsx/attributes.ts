import { WisentError } from "../base/wisent-error.js";
import { escapeHtml } from "./escape.js";
import { Html } from "./html.js";

/** Attributes written without a value when true and left out when false (as hono/jsx did). */
const BOOLEAN_ATTRIBUTES = new Set([
  "allowfullscreen",
  "async",
  "autofocus",
  "autoplay",
  "checked",
  "controls",
  "default",
  "defer",
  "disabled",
  "download",
  "formnovalidate",
  "hidden",
  "inert",
  "ismap",
  "itemscope",
  "loop",
  "multiple",
  "muted",
  "nomodule",
  "novalidate",
  "open",
  "playsinline",
  "readonly",
  "required",
  "reversed",
  "selected",
]);

/** React's spellings of a few attributes, written as HTML spells them. */
const HTML_NAMES = new Map([
  ["className", "class"],
  ["htmlFor", "for"],
  ["crossOrigin", "crossorigin"],
  ["httpEquiv", "http-equiv"],
  ["itemProp", "itemprop"],
  ["fetchPriority", "fetchpriority"],
  ["noModule", "nomodule"],
  ["formAction", "formaction"],
]);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const INVALID_NAME = /[\s"'<>/=`\\\x00-\x1f\x7f-\x9f]/;
const validNames = new Set<string>();

/** A name that cannot end the tag or start another attribute (props spread from data). */
function validName(name: string): boolean {
  if (validNames.has(name)) return true;
  if (name.length === 0 || INVALID_NAME.test(name)) return false;
  if (validNames.size < 1024) validNames.add(name);
  return true;
}

/** CSS properties whose numbers take no `px` (hono/jsx's list). */
/** Each prop's ` name="` ("" for a name that is no attribute), worked out once a name. */
const attributeStarts = new Map<string, string>();

/**
 * ` name="` for prop `key`: one lookup an attribute instead of the HTML name's and the validity
 * check's, and no string built (bench/load/ab-instructions.mjs, HTML index).
 */
function attributeStart(key: string): string {
  let start = attributeStarts.get(key);
  if (start === undefined) {
    const name = HTML_NAMES.get(key) ?? key;
    start = validName(name) ? ` ${name}="` : "";
    if (attributeStarts.size < 1024) attributeStarts.set(key, start);
  }
  return start;
}

const UNITLESS =
  /^(?:a|border-im|column(?:-c|s)|flex(?:$|-[^b])|grid-(?!.*gap)(?:ar|[^a])|font-w|li|or|sca|st|ta|wido|z)|ty$/;

/**
 * `{ fontSize: 12, color: "red" }` as `font-size:12px;color:red`. A value that could end its
 * declaration (`;`, `{`, `}`) is left out, so data cannot add properties.
 */
function styleText(style: Record<string, unknown>): string {
  let text = "";
  for (const key in style) {
    const value = style[key];
    if (value === null || value === undefined) continue;
    const property =
      key[0] === "-" || !/[A-Z]/.test(key)
        ? key
        : key.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);
    let css: string;
    if (typeof value === "number") css = UNITLESS.test(property) ? `${value}` : `${value}px`;
    else if (typeof value === "string" && !/[;{}]/.test(value)) css = value;
    else continue;
    text += `${text ? ";" : ""}${property}:${css}`;
  }
  return text;
}

/**
 * The attributes of one element, each value escaped (an {@link Html} value, from `rawHtml`, as
 * is). null, undefined and a false boolean attribute are left out; `children` and `key` are not
 * attributes.
 */
export function attributesOf(tag: string, props: Record<string, unknown>): string {
  let out = "";
  for (const key in props) {
    // __self and __source: what compilers add to classic-runtime calls in development.
    if (
      key === "children" ||
      key === "key" ||
      key === "ref" ||
      (key[0] === "_" && (key === "__self" || key === "__source"))
    )
      continue;
    const value = props[key];
    if (value === null || value === undefined) continue;
    const start = attributeStart(key);
    if (start === "") continue;
    if (typeof value === "string") {
      out += start + escapeHtml(value) + '"';
      continue;
    }
    const name = HTML_NAMES.get(key) ?? key;
    if (typeof value === "number") {
      out += ` ${name}="${value}"`;
    } else if (typeof value === "boolean") {
      if (!BOOLEAN_ATTRIBUTES.has(name)) out += ` ${name}="${value}"`;
      else if (value) out += ` ${name}=""`;
    } else if (value instanceof Html) {
      out += ` ${name}="${value.value}"`;
    } else if (typeof value === "function") {
      if (!name.startsWith("on")) {
        throw new WisentError(
          "E_JSX_INVALID",
          `<${tag} ${name}>: a function is not an attribute value`,
        );
      }
      // Event handlers mean nothing in server-rendered markup.
    } else if (name === "dangerouslySetInnerHTML") {
      throw new WisentError(
        "E_JSX_INVALID",
        `<${tag}>: dangerouslySetInnerHTML is not supported; use rawHtml(trusted)`,
      );
    } else if (name === "style" && typeof value === "object") {
      out += ` style="${escapeHtml(styleText(value as Record<string, unknown>))}"`;
    } else {
      out += ` ${name}="${escapeHtml(String(value))}"`;
    }
  }
  return out;
}
