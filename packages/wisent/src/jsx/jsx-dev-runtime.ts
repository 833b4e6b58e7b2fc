/** The development entry of the JSX runtime (tools compile JSX to `jsxDEV` in development). */
import type { Html } from "./html.js";
import { jsx } from "./jsx-runtime.js";

export { Fragment, type JSX, jsx, jsxs } from "./jsx-runtime.js";

/** `jsx` with the compiler's development arguments (key, source position) ignored. */
export function jsxDEV(type: Parameters<typeof jsx>[0], props: Record<string, unknown>): Html {
  return jsx(type, props);
}
