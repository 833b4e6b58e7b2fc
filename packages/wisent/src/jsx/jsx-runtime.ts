/**
 * Wisent's JSX runtime (`"jsxImportSource": "wisent/jsx"`): every element renders straight to an
 * escaped string at once, with no virtual DOM, no context provider and no AsyncLocalStorage.
 * Every interpolated value is escaped unless it is markup already (an element, or `rawHtml`).
 */
import type { JSX as HonoJSX } from "hono/jsx";
import { type Child, Html } from "./html.js";
import { childrenText, componentHtml, elementHtml } from "./render.js";

type Component = (props: Record<string, unknown>) => unknown;

/** `<>...</>`: its children, rendered. */
export function Fragment(props: { children?: Child }): Html {
  return new Html(childrenText(props.children));
}

/** Called by compiled JSX for every element: `<a href={x}>y</a>` is `jsx("a", { href: x, children: "y" })`. */
export function jsx(type: string | Component, props: Record<string, unknown>): Html {
  if (typeof type === "function") {
    if (type === Fragment) return new Html(childrenText(props.children));
    return componentHtml(type(props), type);
  }
  return elementHtml(type, props, props.children);
}

/** The same as {@link jsx} (the compiler calls it for elements with several static children). */
export const jsxs = jsx;

/**
 * The classic factory, `h(tag, props, ...children)`, for code without a JSX compiler (.mjs) and
 * for the framework's own files (`@jsxRuntime classic` pragma).
 *
 * @example
 * h("a", { href: "/widgets" }, "Widgets"); // <a href="/widgets">Widgets</a>
 */
export function h(
  type: string | Component,
  props: Record<string, unknown> | null,
  ...children: unknown[]
): Html {
  const given =
    children.length === 0 ? props?.children : children.length === 1 ? children[0] : children;
  // An element takes its children apart from its props: no props object copied per element.
  if (typeof type === "string") return elementHtml(type, props ?? NO_PROPS, given);
  return jsx(type, props ? { ...props, children: given } : { children: given });
}

const NO_PROPS: Record<string, unknown> = Object.freeze({});

type HonoIntrinsic = HonoJSX.IntrinsicElements;

export declare namespace JSX {
  type Element = Html;
  /** Components may render nothing (`null`); hono/jsx allowed the same. */
  type ElementType = string | ((props: never) => Html | null);
  interface ElementChildrenAttribute {
    children: Child;
  }
  /** HTML elements with hono/jsx's attribute types (the markup templates type-check as before). */
  interface IntrinsicElements extends HonoIntrinsic {}
  interface IntrinsicAttributes {
    key?: string | number | bigint | null | undefined;
  }
}

/** The same JSX types for files compiled with the classic factory (`@jsx h`). */
export declare namespace h {
  namespace JSX {
    type Element = Html;
    type ElementType = string | ((props: never) => Html | null);
    interface ElementChildrenAttribute {
      children: Child;
    }
    interface IntrinsicElements extends HonoIntrinsic {}
    interface IntrinsicAttributes {
      key?: string | number | bigint | null | undefined;
    }
  }
}
