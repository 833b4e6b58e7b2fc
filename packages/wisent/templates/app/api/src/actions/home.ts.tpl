import type { Context } from "hono";

/** GET / (`rootPath`): a JSON welcome. */
export function HomeHandler(c: Context) {
  return c.json({ message: "Welcome to @@name@@!" });
}
