import { jsx as h } from "hono/jsx";

/** GET / (rootPath). */
export const HomeHandler = (c) =>
  c.respond(200, { html: () => h("h1", null, "Welcome to Shop"), json: { name: "shop" } });
