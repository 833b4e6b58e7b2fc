import { h } from "wisent/jsx/jsx-runtime";
import { HomePage } from "../templates/layout.mjs";

export function HomeHandler(c) {
  return c.respond(200, { html: () => h(HomePage, null), json: { app: "shop" } });
}
