/**
 * The docs site's built pages (docs/.vitepress/dist, after `vitepress build docs`): every link to
 * a heading (`#paginate`, `/reference/api/wisent/db#paginate`) must land on an element with that
 * id. VitePress fails the build on a link to a page that does not exist, not on one to a
 * heading a page does not have; the API reference links by anchor thousands of times, so
 * `npm run docs:build` runs this last and fails on the first broken one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const SITE_DIR = fileURLToPath(new URL("../../docs/.vitepress/dist", import.meta.url));

const LINK = /<a\s[^>]*?href="([^"]*)"/g;
const ID = /\sid="([^"]+)"/g;

function decode(text) {
  return text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

function htmlFiles(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "assets" ? [] : htmlFiles(path, root);
    return entry.name.endsWith(".html") ? [relative(root, path).split(sep).join("/")] : [];
  });
}

/** The built file a link's path names (`/a/b`, `b.html`, `../c/`), if the site has one. */
function targetPage(siteDir, page, path) {
  if (path === "") return page;
  const joined = path.startsWith("/") ? path.slice(1) : posix.join(posix.dirname(page), path);
  const base = posix.normalize(joined).replace(/\/$/, "");
  const candidates = base.endsWith(".html") ? [base] : [`${base}.html`, `${base}/index.html`];
  return candidates.find((candidate) => existsSync(join(siteDir, candidate)));
}

/**
 * Every link of the site whose anchor names no element of its page: `[{ page, href }]`, in page
 * order. Links out of the site (a scheme, `//host`) and bare `#` are not checked; a link to a
 * page the site does not have is VitePress' to report.
 */
export function brokenAnchors(siteDir = SITE_DIR) {
  const files = htmlFiles(siteDir).sort();
  const ids = new Map();
  const idsOf = (page) => {
    if (!ids.has(page)) {
      const text = readFileSync(join(siteDir, page), "utf8");
      ids.set(page, new Set([...text.matchAll(ID)].map((match) => decode(match[1]))));
    }
    return ids.get(page);
  };
  const broken = [];
  for (const page of files) {
    const text = readFileSync(join(siteDir, page), "utf8");
    for (const match of text.matchAll(LINK)) {
      const href = decode(match[1]);
      if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(href)) continue;
      const at = href.indexOf("#");
      if (at < 0 || at === href.length - 1) continue;
      const path = href.slice(0, at).replace(/\?.*$/, "");
      let anchor = href.slice(at + 1);
      try {
        anchor = decodeURIComponent(anchor);
      } catch {}
      const target = targetPage(siteDir, page, path);
      if (target === undefined) continue;
      if (!idsOf(target).has(anchor)) broken.push({ page, href });
    }
  }
  return broken;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(SITE_DIR)) {
    console.error(`no built site in ${SITE_DIR}: run \`vitepress build docs\` first`);
    process.exit(1);
  }
  const broken = brokenAnchors();
  for (const { page, href } of broken) {
    console.error(`${page}: the link ${href} names no heading or id of its page`);
  }
  if (broken.length > 0) process.exit(1);
  console.log("every link to a heading of the docs site lands on one");
}
