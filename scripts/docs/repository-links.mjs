/**
 * A markdown-it plugin for the docs site (docs/.vitepress/config.mts): a relative link from a page
 * under docs/ to a repository file outside it (`../../bench/README.md`, `../../e2e/reliability/`)
 * becomes the file's address on GitHub, from the repository field of the root package.json. The
 * Markdown keeps relative links, which work on GitHub and in an editor; the site, which holds only
 * docs/, links to the repository instead of to a page it does not have. A link out of docs/ to a
 * path that does not exist fails the build, as VitePress fails it for a dead link between pages.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const REPOSITORY_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `https://github.com/<owner>/<name>` from package.json's `repository` (string or object). */
export function repositoryWebUrl(packageJson) {
  const field = packageJson.repository;
  const url = typeof field === "string" ? field : field?.url;
  const match = /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url ?? "");
  if (!match) throw new Error(`package.json's repository is not a GitHub repository: ${url}`);
  return `https://github.com/${match[1]}`;
}

/**
 * Where a link of the page at `pagePath` (absolute) goes: unchanged when it stays in `docsRoot`, is
 * absolute, an anchor or a URL; else the GitHub address of the repository file (`blob`, or `tree`
 * for a folder). Throws for a link out of docs/ to a path that does not exist.
 */
export function rewriteLink(href, pagePath, { repositoryRoot, docsRoot, webUrl, branch = "main" }) {
  if (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href)) return href;
  const [path, fragment] = splitFragment(href);
  const target = resolve(dirname(pagePath), decodeURIComponent(path));
  const inDocs = relative(docsRoot, target);
  if (!inDocs.startsWith(`..${sep}`) && inDocs !== "..") return href;
  const inRepository = relative(repositoryRoot, target);
  if (inRepository.startsWith(`..${sep}`) || !existsSync(target)) {
    const page = relative(repositoryRoot, pagePath);
    throw new Error(`${page}: the link ${href} leads to ${inRepository}, which does not exist`);
  }
  const kind = statSync(target).isDirectory() ? "tree" : "blob";
  const parts = inRepository.split(sep).map(encodeURIComponent).join("/");
  return `${webUrl}/${kind}/${branch}/${parts}${fragment}`;
}

function splitFragment(href) {
  const at = href.search(/[?#]/);
  return at < 0 ? [href, ""] : [href.slice(0, at), href.slice(at)];
}

/** The plugin: `md.use(repositoryLinks, { docsRoot })`; reads the pages' paths from VitePress' env. */
export function repositoryLinks(md, { docsRoot, repositoryRoot = REPOSITORY_ROOT }) {
  const packageJson = JSON.parse(readFileSync(resolve(repositoryRoot, "package.json"), "utf8"));
  const options = { repositoryRoot, docsRoot, webUrl: repositoryWebUrl(packageJson) };
  md.core.ruler.push("repository_links", (state) => {
    const page = state.env?.realPath ?? state.env?.path;
    if (!page) return;
    for (const token of state.tokens) {
      for (const child of token.children ?? []) {
        if (child.type !== "link_open") continue;
        const href = child.attrGet("href");
        if (href) child.attrSet("href", rewriteLink(href, page, options));
      }
    }
  });
}
