import {
  type Layout as AppLayout,
  CspNonceMeta,
  CsrfMeta,
  FlashMessages,
  rawHtml,
  usePaths,
} from "wisent/jsx";
import { ResourceLinks } from "./resource-links.js";

/**
 * The page around every HTML view: head (stylesheet, script, CSRF and CSP nonce meta tags),
 * header, flash messages, the view in <main>. No inline scripts or styles, so a strict
 * Content-Security-Policy holds; a script that must add one (Turbo, htmx) reads the request's
 * nonce from <meta name="csp-nonce">.
 */
export const Layout: AppLayout = ({ page, children }) => {
  const paths = usePaths();
  return (
    <>
      {rawHtml("<!DOCTYPE html>")}
      <html lang={page.lang}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{page.t("app.title")}</title>
          <CsrfMeta />
          <CspNonceMeta />
          <link rel="icon" href="/favicon.ico" sizes="32x32" />
          <link rel="stylesheet" href="/assets/application.css" />
          <script src="/assets/application.js" defer />
        </head>
        <body>
          <a class="skip-link" href="#main">
            {page.t("app.skip_to_content")}
          </a>
          <header class="site-header">
            <nav class="container" aria-label={page.t("app.main_navigation")}>
              <a class="brand" href={paths.rootPath()}>
                {page.t("app.title")}
              </a>
              <ResourceLinks />
            </nav>
          </header>
          <main id="main" class="container">
            <FlashMessages />
            {children}
          </main>
          <footer class="site-footer">
            <p class="container">{page.t("app.footer")}</p>
          </footer>
        </body>
      </html>
    </>
  );
};
