import { WisentError } from "../base/wisent-error.js";
import { attributesOf } from "./attributes.js";
import { escapeHtml } from "./escape.js";
import { type Child, Html } from "./html.js";

/** Elements without content or end tag, written `<br/>` as hono/jsx wrote them. */
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const INVALID_TAG = /^[!?]|[\s"'<>/=`\\\x00-\x1f\x7f-\x9f]/;

/** The markup of children: strings and other values escaped, {@link Html} as is, arrays flattened. */
export function childrenText(child: unknown): string {
  if (typeof child === "string") return escapeHtml(child);
  if (child instanceof Html) return child.value;
  if (child === null || child === undefined || typeof child === "boolean") return "";
  if (typeof child === "number" || typeof child === "bigint") return `${child}`;
  if (Array.isArray(child)) {
    let out = "";
    for (let i = 0; i < child.length; i++) out += childrenText(child[i]);
    return out;
  }
  if (child instanceof Promise) {
    throw new WisentError(
      "E_JSX_INVALID",
      "a template rendered a Promise: wisent/jsx renders synchronously; load data in the action and pass it as props",
    );
  }
  return escapeHtml(String(child));
}

/** A tag name that cannot end the tag early (a tag from data: `jsx(tagName, ...)`). */
function checkTag(tag: string): void {
  if (tag.length === 0 || INVALID_TAG.test(tag))
    throw new WisentError("E_JSX_INVALID", `invalid JSX tag name: ${tag}`);
}

/** One HTML element with its attributes (`children` among props is not one) and children. */
export function elementHtml(tag: string, props: Record<string, unknown>, children: unknown): Html {
  const known = tagOf(tag);
  const open = known.open + attributesOf(tag, props);
  if (known.isVoid && (children === undefined || children === null)) return new Html(`${open}/>`);
  return new Html(`${open}>${childrenText(children)}${known.close}`);
}

/** A checked tag's `<tag` and `</tag>`, and whether it is a void element. */
interface Tag {
  readonly open: string;
  readonly close: string;
  readonly isVoid: boolean;
}

/**
 * Each tag checked and its strings made once: one lookup an element instead of the check's and
 * the void elements', and no `</tag>` built (bench/load/ab-instructions.mjs, HTML index).
 */
const tags = new Map<string, Tag>();

function tagOf(tag: string): Tag {
  let known = tags.get(tag);
  if (known === undefined) {
    checkTag(tag);
    known = { open: `<${tag}`, close: `</${tag}>`, isVoid: VOID_ELEMENTS.has(tag) };
    if (tags.size < 256) tags.set(tag, known);
  }
  return known;
}

/** What a component returned, as markup (a string it returns is escaped like any other). */
export function componentHtml(result: unknown, component: { name: string }): Html {
  if (result instanceof Html) return result;
  if (result instanceof Promise) {
    throw new WisentError(
      "E_JSX_INVALID",
      `<${component.name || "component"}> returned a Promise: wisent/jsx renders synchronously; load data in the action and pass it as props`,
    );
  }
  return new Html(childrenText(result));
}

/**
 * Renders any child to its HTML text (what `c.respond` sends).
 * @param child - an element, a component's markup, text (escaped) or a list of them
 * @returns the HTML
 * @throws WisentError `E_JSX_INVALID` when a component returns a Promise (rendering is synchronous), or an element's
 *   tag name is not a valid one
 * @example renderToString(<p>{"<hi>"}</p>); // "<p>&lt;hi&gt;</p>"
 */
export function renderToString(child: Child): string {
  return childrenText(child);
}
