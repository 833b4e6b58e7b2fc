/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */

import { Fragment as HonoFragment, jsx as honoJsx } from "hono/jsx";
import { describe, expect, it } from "vitest";
import { pageOf, usePage, withPage } from "../http/page.js";
import { escapeHtml } from "./escape.js";
import { type Child, Html, rawHtml } from "./html.js";
import { Fragment, h, jsx } from "./jsx-runtime.js";
import { renderToString } from "./render.js";

type Factory = (
  tag: never,
  props: Record<string, unknown> | null,
  ...children: unknown[]
) => unknown;

const HOSTILE = `</p><script>alert("x" + 'y')</script>&amp;`;
const HOSTILE_ESCAPED =
  "&lt;/p&gt;&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt;&amp;amp;";

/** A component that puts its props into text and attributes, as a template does. */
const comment =
  (f: Factory) =>
  (props: { author: string; text: string; children?: Child }): unknown =>
    f(
      "div" as never,
      { class: "comment", "data-author": props.author, title: props.text },
      f("b" as never, null, props.author),
      props.text,
      props.children,
    );

/**
 * Each case built with a factory, so the cases marked `hono` can be built again with hono/jsx's
 * `jsx` and must render the same bytes (the shop's markup did not change with the runtime).
 */
const CASES: {
  name: string;
  build: (f: Factory, fragment: unknown) => unknown;
  html: string;
  hono?: boolean;
}[] = [
  {
    name: "text is escaped",
    build: (f) => f("p" as never, null, HOSTILE),
    html: `<p>${HOSTILE_ESCAPED}</p>`,
    hono: true,
  },
  {
    name: "attribute values are escaped (quotes, <, &)",
    build: (f) => f("a" as never, { href: `/x?a=1&b="2"<'3'>` }, "x"),
    html: `<a href="/x?a=1&amp;b=&quot;2&quot;&lt;&#39;3&#39;&gt;">x</a>`,
    hono: true,
  },
  {
    name: "numbers and bigints as text, in text and attributes",
    build: (f) => f("td" as never, { colspan: 2 }, 3, 4n),
    html: `<td colspan="2">34</td>`,
  },
  {
    name: "nested arrays and fragments are flattened",
    build: (f, fragment) =>
      f(
        "ul" as never,
        null,
        [1, 2].map((n) => f("li" as never, null, n)),
        [[f("li" as never, null, "a")], f(fragment as never, null, f("li" as never, null, "b"))],
      ),
    html: "<ul><li>1</li><li>2</li><li>a</li><li>b</li></ul>",
    hono: true,
  },
  {
    name: "null, undefined and booleans render nothing as children",
    build: (f) => f("p" as never, null, null, undefined, false, true, "x"),
    html: "<p>x</p>",
    hono: true,
  },
  {
    name: "boolean attributes: true written empty, false left out",
    build: (f) =>
      f("script" as never, { src: "/a.js", defer: true, async: false, hidden: undefined }),
    html: `<script src="/a.js" defer=""></script>`,
    hono: true,
  },
  {
    name: "other booleans are written as text (aria-*), null and undefined left out",
    build: (f) =>
      f("button" as never, {
        "aria-pressed": true,
        "aria-expanded": false,
        "aria-label": null,
        title: undefined,
      }),
    html: `<button aria-pressed="true" aria-expanded="false"></button>`,
    hono: true,
  },
  {
    name: "class and className, for and htmlFor",
    build: (f) =>
      f(
        "label" as never,
        { className: "a b", htmlFor: "x" },
        f("span" as never, { class: `alert alert-${"<x>"}` }),
      ),
    html: `<label class="a b" for="x"><span class="alert alert-&lt;x&gt;"></span></label>`,
    hono: true,
  },
  {
    name: "style as a string (escaped) or an object (kebab-case, px for lengths)",
    build: (f) => [
      f("p" as never, { style: `color:red;content:"<"` }),
      f("p" as never, { style: { fontSize: 12, lineHeight: 1.5, backgroundColor: "blue" } }),
    ],
    html: `<p style="color:red;content:&quot;&lt;&quot;"></p><p style="font-size:12px;line-height:1.5;background-color:blue"></p>`,
    hono: true,
  },
  {
    name: "a style object's value cannot add declarations",
    build: (f) => f("p" as never, { style: { color: "red;position:fixed", margin: 0 } }),
    html: `<p style="margin:0px"></p>`,
  },
  {
    name: "void elements close themselves",
    build: (f) => [
      f("br" as never, null),
      f("input" as never, { type: "text", name: "title", value: `a"b` }),
      f("meta" as never, { charset: "utf-8" }),
    ],
    html: `<br/><input type="text" name="title" value="a&quot;b"/><meta charset="utf-8"/>`,
    hono: true,
  },
  {
    name: "a component's props are escaped wherever it puts them",
    build: (f) => f(comment(f) as never, { author: HOSTILE, text: `"><script>x()</script>` }),
    html: `<div class="comment" data-author="${HOSTILE_ESCAPED}" title="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"><b>${HOSTILE_ESCAPED}</b>&quot;&gt;&lt;script&gt;x()&lt;/script&gt;</div>`,
    hono: true,
  },
  {
    name: "a component's children stay markup, text in them is escaped",
    build: (f) => f(comment(f) as never, { author: "a", text: "t" }, f("i" as never, null, "<i>")),
    html: `<div class="comment" data-author="a" title="t"><b>a</b>t<i>&lt;i&gt;</i></div>`,
    hono: true,
  },
  {
    name: "a string returned by a component is escaped",
    build: (f) => f((() => "<b>") as never, null),
    html: "&lt;b&gt;",
    hono: true,
  },
  {
    name: "a component returning null renders nothing",
    build: (f) => f("p" as never, null, f((() => null) as never, null)),
    html: "<p></p>",
    hono: true,
  },
  {
    name: "rawHtml is inserted as is, in text and attributes",
    build: (f) => [
      rawHtml("<!DOCTYPE html>"),
      f("p" as never, { title: rawHtml("&copy;") }, rawHtml("<b>ok</b>")),
    ],
    html: `<!DOCTYPE html><p title="&copy;"><b>ok</b></p>`,
  },
  {
    name: "an object is escaped as its text",
    build: (f) => f("p" as never, null, { toString: () => "<x>" }),
    html: "<p>&lt;x&gt;</p>",
  },
  {
    name: "event handlers are left out",
    build: (f) => f("button" as never, { onClick: () => 1 }, "go"),
    html: "<button>go</button>",
    hono: true,
  },
  {
    name: "attribute names that are Object.prototype's own are plain attributes",
    build: (f) => f("p" as never, { constructor: "a", toString: "b" }),
    html: `<p constructor="a" toString="b"></p>`,
  },
  {
    name: "attribute names that could end the tag are left out",
    build: (f) => f("p" as never, { 'x"><script>': "1", "data-ok": "2" }),
    html: `<p data-ok="2"></p>`,
    hono: true,
  },
];

describe("wisent/jsx", () => {
  it.each(CASES)("$name", ({ build, html }) => {
    expect(renderToString(build(h as Factory, Fragment) as Child)).toBe(html);
  });

  it.each(CASES.filter((c) => c.hono))("$name: the same bytes as hono/jsx", ({ build, html }) => {
    const hono = build(honoJsx as Factory, HonoFragment);
    const text = Array.isArray(hono) ? hono.map(String).join("") : String(hono);
    expect(text).toBe(html);
  });

  it("compiles JSX syntax to the same markup", () => {
    const rows = [{ id: 1, title: "<One>" }];
    const page = (
      <>
        {rawHtml("<!DOCTYPE html>")}
        <table>
          {rows.map((row) => (
            <tr data-id={row.id}>
              <td>{row.title}</td>
            </tr>
          ))}
        </table>
      </>
    );
    expect(page).toBeInstanceOf(Html);
    expect(String(page)).toBe(
      `<!DOCTYPE html><table><tr data-id="1"><td>&lt;One&gt;</td></tr></table>`,
    );
  });

  it("the automatic runtime's jsx takes children in props", () => {
    expect(String(jsx("a", { href: "/&", children: ["<", jsx("b", { children: "x" })] }))).toBe(
      `<a href="/&amp;">&lt;<b>x</b></a>`,
    );
  });

  it.each([
    {
      name: "dangerouslySetInnerHTML",
      build: () => h("div", { dangerouslySetInnerHTML: { __html: "<b>" } }),
      error: /rawHtml/,
    },
    {
      name: "a function as a non-event attribute",
      build: () => h("a", { href: () => "/" }),
      error: /function is not an attribute value/,
    },
    {
      name: "an async component",
      build: () => h((async () => h("p", null)) as never, null),
      error: /returned a Promise/,
    },
    {
      name: "a Promise child",
      build: () => h("p", null, Promise.resolve("x")),
      error: /rendered a Promise/,
    },
    { name: "a tag name that is markup", build: () => h("p><script", null), error: /tag name/ },
  ])("refuses $name with a clear error", ({ build, error }) => {
    expect(build).toThrow(error);
  });

  it("escapeHtml escapes the five characters and leaves other text alone", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
    expect(escapeHtml("plain text")).toBe("plain text");
    expect(escapeHtml("a&b")).toBe("a&amp;b");
  });
});

describe("usePage", () => {
  const pageFor = (lang: string) =>
    pageOf({
      get: (key: unknown) =>
        typeof key === "symbol" && key.description === "wisent.page.lang" ? () => lang : undefined,
    } as never);

  it("reads the page of the render it is in, and the outer one again after a nested render", () => {
    const Lang = () => <span>{usePage().lang}</span>;
    const html = withPage(pageFor("de"), () =>
      renderToString([<Lang />, withPage(pageFor("fr"), () => <Lang />), <Lang />]),
    );
    expect(html).toBe("<span>de</span><span>fr</span><span>de</span>");
  });

  it("throws outside a render, also after a render that threw", () => {
    expect(() =>
      withPage(pageFor("de"), () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(() => usePage()).toThrow(/only inside a view rendered by c.respond/);
  });
});
