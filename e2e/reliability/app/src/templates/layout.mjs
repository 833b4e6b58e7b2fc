// Templates as wisent/jsx calls: the generated app writes these as .tsx; `h(tag, props, ...children)`
// is what its JSX compiles to, so escaping and components behave the same.

import { CsrfMeta, FlashMessages } from "wisent";
import { h } from "wisent/jsx/jsx-runtime";

/** The application layout (src/templates/application.tsx in a generated app). */
export const AppLayout = ({ page, children }) =>
  h(
    "html",
    { lang: page.lang },
    h(
      "head",
      null,
      h("meta", { charset: "utf-8" }),
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h("title", null, "Shop"),
      h(CsrfMeta, null),
      h("link", { rel: "stylesheet", href: "/application.css" }),
      h("script", { src: "/application.js", defer: true }),
    ),
    h("body", null, h("main", { class: "container" }, h(FlashMessages, null), children)),
  );

export const HomePage = () =>
  h(
    "section",
    null,
    h("h1", null, "Welcome to Shop"),
    h("p", null, h("a", { href: "/widgets" }, "Widgets")),
  );
