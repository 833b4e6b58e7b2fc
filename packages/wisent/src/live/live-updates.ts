import { cspNonce } from "../http/csp-nonce.js";
import { usePage } from "../http/page.js";
import type { FC } from "../jsx/html.js";
import { Fragment, h } from "../jsx/jsx-runtime.js";
import { liveStreamToken } from "./live-resource.js";
import { LIVE_SCRIPT_PATH } from "./turbo-assets.js";

/**
 * Subscribes the page to its live resource's changes: a Turbo 8 `<turbo-stream-source>` on the
 * page's signed stream, and the script that loads Turbo (served by the app, Drive off), so the
 * page refreshes itself when a record of the resource is created, updated or destroyed.
 * Renders nothing on a page of a resource that is not `live: true`, so it is safe in any template.
 *
 * @returns the stream source element, or nothing
 * @throws WisentError `E_APP_MISCONFIGURED` when rendered outside a view `c.respond` renders
 * @example
 * // templates/widgets/index.tsx
 * <><LiveUpdates /><h1>Widgets</h1>...</>
 */
export const LiveUpdates: FC = () => {
  const c = usePage().c;
  const token = liveStreamToken(c);
  if (token === undefined) return null;
  const src = c.get("wisent").pathFor("liveStreamPath", { live_stream: token });
  const nonce = cspNonce(c);
  return h(
    Fragment,
    {},
    h("script", { type: "module", src: LIVE_SCRIPT_PATH, ...(nonce && { nonce }) }),
    // Permanent: a refresh keeps the element (and its open stream) rather than reconnecting.
    h("turbo-stream-source", { src, id: `live-${token.slice(-16)}`, "data-turbo-permanent": true }),
  );
};
