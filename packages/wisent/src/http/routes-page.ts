import { html } from "hono/html";
import type { RouteInfo } from "../routes/route-info.js";
import { devPage } from "./dev-page.js";

/**
 * Development's answer to a request no route matched, as Rails' and Laravel's are: what was
 * asked for, then every route of the app (method, path, name, handler) in match order. No stack
 * trace: a missing route is not the framework's failure.
 *
 * @example
 * await noRoutePage("path not found: GET /nope/", app.routes(), "/assets/application.css")
 */
export function noRoutePage(
  message: string,
  routes: readonly RouteInfo[],
  stylesheet?: string,
): Promise<string> {
  const rows = routes.map(
    (r) =>
      html`<tr><td><code>${r.method}</code></td><td><code>${r.path}</code>${r.aliases.map(
        (alias) => html`<br><code>${alias}</code>`,
      )}</td><td>${r.name}</td><td><code>${r.handler}</code></td></tr>
`,
  );
  return devPage(
    "404 Not Found",
    html`<h1>404 Not Found</h1>
<p class="alert">${message}</p>
<p class="lead">No route matches this request. The app's routes, in match order (the first match wins; <code>wisent routes</code> prints them too):</p>
<div class="table-wrap"><table>
<thead><tr><th>Method</th><th>Path</th><th>Name</th><th>Handler</th></tr></thead>
<tbody>
${rows}</tbody>
</table></div>
<p>This page is shown in development only; other environments answer a plain 404.</p>`,
    stylesheet ? { stylesheet } : {},
  );
}
