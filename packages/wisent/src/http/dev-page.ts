import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/**
 * The look of the pages only development shows (the 404 listing the routes, the dev server's
 * "the app did not start" page): the scaffold's palette, inline so that they read well in an
 * API app too. Under a strict Content-Security-Policy (the web scaffold's) the inline styles are
 * refused; `stylesheet` then gives the scaffold's own stylesheet, whose classes these pages use.
 */
const DEV_STYLE = `:root{color-scheme:light dark;--bg:#f7f7f5;--surface:#fff;--text:#1d232a;--muted:#55606b;--border:#d6d9dc;--accent:#1f5fbf;--error-bg:#fdecea;--error-text:#7f1d1d;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55}
@media (prefers-color-scheme:dark){:root{--bg:#15181c;--surface:#1e2228;--text:#e8eaed;--muted:#a9b1ba;--border:#3a4049;--accent:#8ab4f8;--error-bg:#3d1a1a;--error-text:#f9c9c5}}
body{margin:0;background:var(--bg);color:var(--text)}
.container{max-width:64rem;margin:0 auto;padding:2rem 1.25rem}
h1{font-size:1.75rem;margin:0 0 1rem}.lead{font-size:1.1rem;color:var(--muted)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.table-wrap{overflow-x:auto}table{border-collapse:collapse;width:100%;background:var(--surface);border:1px solid var(--border)}
th,td{text-align:left;padding:.4rem .75rem;border-bottom:1px solid var(--border)}th{color:var(--muted);font-weight:600}
.alert{background:var(--error-bg);color:var(--error-text);padding:.75rem 1rem;border-radius:6px;margin:0 0 1rem}
pre{background:var(--surface);border:1px solid var(--border);padding:1rem;overflow:auto;border-radius:6px}
.excerpt .current{background:var(--error-bg);color:var(--error-text);display:block}`;

/** Options of {@link devPage}. */
export interface DevPageOptions {
  /** A stylesheet to link as well (the web scaffold's `/assets/application.css`). */
  readonly stylesheet?: string;
}

/**
 * A whole development page around `body` (already escaped HTML).
 * @example await devPage("404 Not Found", html`<p>No route</p>`)
 */
export async function devPage(
  title: string,
  body: HtmlEscapedString | Promise<HtmlEscapedString>,
  options: DevPageOptions = {},
): Promise<string> {
  const link = options.stylesheet ? html`<link rel="stylesheet" href="${options.stylesheet}">` : "";
  return String(
    await html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
${link}<style>${raw(DEV_STYLE)}</style>
</head>
<body><main class="container">${body}</main></body>
</html>
`,
  );
}
