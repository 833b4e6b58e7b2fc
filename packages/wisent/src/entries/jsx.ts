/**
 * `wisent/jsx`: rendering pages: the JSX helpers, the page a template reads (`usePage()`), the
 * app's typed path helpers (`usePaths()`), the layout middleware and the components (CSRF
 * field, button_to, flash messages, paginator, file link).
 *
 * @example
 * import { CsrfField, Paginator, usePage, usePaths } from "wisent/jsx";
 * @module
 */

export { type PageSlot, Paginator, type PaginatorProps, pageSlots } from "../data/paginator.js";
export {
  ButtonTo,
  type ButtonToProps,
  CspNonceMeta,
  CsrfField,
  CsrfMeta,
  FlashMessages,
} from "../http/components.js";
export { FileLink } from "../http/file-link.js";
export { type FlashByKind, type Page, pageOf, usePage, withPage } from "../http/page.js";
export { pageUrlsOf } from "../http/pagination-headers.js";
export {
  type Layout,
  layout,
  type RedirectFlash,
  type RedirectTarget,
  type RespondOptions,
} from "../http/respond.js";
export { type AppPaths, usePaths } from "../http/use-paths.js";
export { escapeHtml } from "../jsx/escape.js";
export { type Child, type FC, type Html, rawHtml } from "../jsx/html.js";
export { renderToString } from "../jsx/render.js";
export { domId } from "../live/live-rows.js";
export { LiveUpdates } from "../live/live-updates.js";
