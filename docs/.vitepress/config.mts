import { fileURLToPath } from "node:url";
import { defineConfig } from "vitepress";
import { apiSidebarItems } from "../../scripts/docs/api-reference.mjs";
import { repositoryLinks } from "../../scripts/docs/repository-links.mjs";

const docsRoot = fileURLToPath(new URL("../", import.meta.url));

/**
 * The docs site (`npm run docs:build`, part of `npm test`; `npm run docs:dev` to preview). Dead
 * links between pages fail the build (VitePress' default: keep `ignoreDeadLinks` unset), and so
 * does a link to a heading its page lacks (scripts/docs/check-anchors.mjs, run after); links out
 * of docs/ become GitHub addresses, and fail the build when the file is missing
 * (scripts/docs/repository-links.mjs). Nothing is fetched: no web fonts, no remote search.
 */
export default defineConfig({
  title: "Wisent",
  description: "Resource routing, generators and a real database for Hono apps on Node.",
  cleanUrls: true,
  lastUpdated: false,
  markdown: {
    config: (md) => {
      md.use(repositoryLinks, { docsRoot });
      // Inline code is shown as written: `{{name}}` (an i18n placeholder) is not Vue's to fill.
      const codeInline = md.renderer.rules.code_inline;
      md.renderer.rules.code_inline = (tokens, idx, options, env, self) => {
        tokens[idx]?.attrSet("v-pre", "");
        return codeInline
          ? codeInline(tokens, idx, options, env, self)
          : self.renderToken(tokens, idx, options);
      };
    },
  },
  themeConfig: {
    nav: [
      { text: "Getting started", link: "/guides/getting-started" },
      { text: "Guides", link: "/guides/installing" },
      { text: "Reference", link: "/reference/cli" },
      { text: "Explanation", link: "/explanation/differences-from-buffalo-and-rails" },
    ],
    sidebar: [
      {
        text: "Guides",
        items: [
          { text: "Getting started", link: "/guides/getting-started" },
          { text: "Installing", link: "/guides/installing" },
          { text: "Routing", link: "/guides/routing" },
          { text: "Models and migrations", link: "/guides/models-and-migrations" },
          { text: "Generators", link: "/guides/generators" },
          { text: "Forms and templates", link: "/guides/forms-and-templates" },
          { text: "Translations (i18n)", link: "/guides/i18n" },
          { text: "Authentication and ownership", link: "/guides/authentication-and-ownership" },
          { text: "APIs, OpenAPI and the client", link: "/guides/api-and-openapi" },
          { text: "Pagination", link: "/guides/pagination" },
          { text: "Files and uploads", link: "/guides/files-and-uploads" },
          { text: "Background jobs and mail", link: "/guides/jobs" },
          { text: "Live pages", link: "/guides/live-pages" },
          { text: "Errors", link: "/guides/errors" },
          { text: "Testing", link: "/guides/testing" },
          { text: "Deployment and scaling", link: "/guides/deployment-and-scaling" },
          { text: "Security", link: "/security" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "CLI", link: "/reference/cli" },
          { text: "Attribute types", link: "/reference/attribute-types" },
          { text: "Middleware", link: "/reference/middleware" },
          { text: "Environment variables", link: "/reference/environment" },
        ],
      },
      { text: "API (from the code)", collapsed: true, items: apiSidebarItems() },
      {
        text: "Explanation",
        items: [
          {
            text: "Differences from Buffalo and Rails",
            link: "/explanation/differences-from-buffalo-and-rails",
          },
          { text: "Reliability", link: "/explanation/reliability" },
          { text: "Performance", link: "/explanation/performance" },
        ],
      },
    ],
    search: { provider: "local" },
    outline: [2, 3],
  },
});
