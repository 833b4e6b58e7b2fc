import type { Context } from "hono";
import { HomePage } from "../templates/home/index.js";

/** GET / (`rootPath`): the welcome page. */
export function HomeHandler(c: Context) {
  return c.respond(200, { html: () => HomePage() });
}
