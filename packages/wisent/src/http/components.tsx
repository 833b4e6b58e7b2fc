/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
import { escapeHtml } from "../jsx/escape.js";
import { type FC, type Html, Html as HtmlMarkup } from "../jsx/html.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { Fragment, h } from "../jsx/jsx-runtime.js";
import { childrenText } from "../jsx/render.js";
import { cspNonce } from "./csp-nonce.js";
import { usePage } from "./page.js";

/**
 * The hidden `authenticity_token` field every non-GET form needs.
 *
 * @returns the hidden input, or nothing when the app does not use `csrf()`
 * @throws WisentError `E_APP_MISCONFIGURED` when rendered outside a view `c.respond` renders
 * @example
 * <form method="post" action="/widgets"><CsrfField />...</form>
 */
export const CsrfField: FC = () => {
  const page = usePage();
  const token = page.csrfToken;
  if (!token) return null;
  // One field for every form of a page (the shop's index has one a row): made once a token
  // (bench/load/ab-instructions.mjs, HTML index).
  if (lastField?.token !== token || lastField.param !== page.csrfParam) {
    lastField = {
      token,
      param: page.csrfParam,
      html: <input type="hidden" name={page.csrfParam} value={token} />,
    };
  }
  return lastField.html;
};

/** The last page's CSRF field (rendering is synchronous: one page at a time). */
let lastField: { token: string; param: string; html: Html } | undefined;

/** What {@link ButtonTo} takes: where the form goes, with which method, and what to confirm. */
export interface ButtonToProps {
  /** The form's action: the path the button's request goes to. */
  action: string;
  /** The request's method; anything but POST travels as the `_method` field. Default `POST`. */
  method?: "POST" | "PUT" | "PATCH" | "DELETE";
  /** A question the page's script asks before sending (`data-confirm`); none by default. */
  confirm?: string;
}

/** The hidden `_method` field of a form sending `method`. */
const methodField = (method: string) => <input type="hidden" name="_method" value={method} />;

/** Made once, not a form (bench/load/ab-instructions.mjs, HTML index: a Destroy form a row). */
const METHOD_FIELDS: Readonly<Record<string, Html>> = {
  PUT: methodField("PUT"),
  PATCH: methodField("PATCH"),
  DELETE: methodField("DELETE"),
};

/**
 * A one-button form (Rails' `button_to`): a link-looking button that sends a non-GET request,
 * with the CSRF token, and works without JavaScript (a `data-method` link needs the page's script).
 *
 * @param props - the form's `action`, its `method` (default POST), a `confirm` question, and
 *   the button's label as children
 * @returns the form
 * @throws WisentError `E_APP_MISCONFIGURED` when rendered outside a view `c.respond` renders
 * @example
 * <ButtonTo action={paths.widgetPath(widget)} method="DELETE" confirm="Are you sure?">Destroy</ButtonTo>
 */
export const ButtonTo: FC<ButtonToProps> = (props) => {
  const method = props.method ?? "POST";
  const methodHtml = method === "POST" ? "" : (METHOD_FIELDS[method] ?? methodField(method)).value;
  const confirm =
    props.confirm === undefined || props.confirm === null
      ? ""
      : ` data-confirm="${escapeHtml(props.confirm)}"`;
  // The markup the JSX `<form class="button-to" method="post" action={...}>` with its fields and
  // `<button type="submit" class="link" data-confirm={...}>` renders, written out: the fixed
  // parts are not rendered again for every row of a list (bench/load/ab-instructions.mjs, HTML
  // index; the JSX runtime's test pins the two to the same bytes).
  return new HtmlMarkup(
    `<form class="button-to" method="post" action="${escapeHtml(props.action)}">${methodHtml}${
      CsrfField({})?.value ?? ""
    }<button type="submit" class="link"${confirm}>${childrenText(props.children)}</button></form>`,
  );
};

/**
 * The `csrf-param` and `csrf-token` meta tags for the layout's `<head>` (scripts read them to send
 * `X-CSRF-Token`).
 * @returns the two meta tags, or nothing when the app does not use `csrf()`
 * @throws WisentError `E_APP_MISCONFIGURED` when rendered outside a view `c.respond` renders
 * @example <head><CsrfMeta /></head>
 */
export const CsrfMeta: FC = () => {
  const page = usePage();
  if (!page.csrfToken) return null;
  return (
    <>
      <meta name="csrf-param" content={page.csrfParam} />
      <meta name="csrf-token" content={page.csrfToken} />
    </>
  );
};

/**
 * `<meta name="csp-nonce" content="...">` for the layout's `<head>` (Rails' `csp_meta_tag`):
 * the request's Content-Security-Policy nonce, which Turbo (its progress bar's `<style>`) and
 * scripts that add inline styles or scripts read, so the CSP needs no `'unsafe-inline'`.
 * Nothing when the CSP has no nonce.
 *
 * @returns the meta tag, or nothing
 * @throws WisentError `E_APP_MISCONFIGURED` when rendered outside a view `c.respond` renders
 * @example
 * <head><CsrfMeta /><CspNonceMeta /></head>
 */
export const CspNonceMeta: FC = () => {
  const nonce = cspNonce(usePage().c);
  if (!nonce) return null;
  return <meta name="csp-nonce" content={nonce} />;
};

/**
 * Shows the flash messages (once), one `<div class="alert alert-<kind>" role="alert">` each.
 *
 * @returns the messages in a `<div class="flash">`, or nothing when there are none
 * @throws WisentError `E_APP_MISCONFIGURED` when rendered outside a view `c.respond` renders
 * @example
 * <body><FlashMessages />{children}</body>
 */
export const FlashMessages: FC = () => {
  const flash = usePage().flash;
  const entries = Object.entries(flash).flatMap(([kind, messages]) =>
    messages.map((message) => ({ kind, message })),
  );
  if (entries.length === 0) return null;
  return (
    <div class="flash">
      {entries.map(({ kind, message }) => (
        <div class={`alert alert-${kind}`} role="alert" data-flash={kind}>
          {message}
        </div>
      ))}
    </div>
  );
};
