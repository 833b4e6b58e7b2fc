import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repositoryWebUrl, rewriteLink } from "./repository-links.mjs";

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const docsRoot = join(repositoryRoot, "docs");
const page = join(docsRoot, "explanation/performance.md");
const options = { repositoryRoot, docsRoot, webUrl: "https://github.com/o/r" };

describe("rewriteLink", () => {
  it.each([
    ["../../bench/README.md", "https://github.com/o/r/blob/main/bench/README.md"],
    [
      "../../bench/README.md#load-throughput",
      "https://github.com/o/r/blob/main/bench/README.md#load-throughput",
    ],
    ["../../e2e/reliability", "https://github.com/o/r/tree/main/e2e/reliability"],
  ])("sends %s, outside docs/, to GitHub: %s", (href, url) => {
    expect(rewriteLink(href, page, options)).toBe(url);
  });

  it.each([
    "../guides/getting-started.md",
    "./reliability.md#figures",
    "#a-heading",
    "https://hono.dev",
    "/guides/routing",
  ])("keeps %s, a page of the site or a URL", (href) => {
    expect(rewriteLink(href, page, options)).toBe(href);
  });

  it("fails on a link out of docs/ to nothing, naming the page", () => {
    expect(() => rewriteLink("../../bench/NOPE.md", page, options)).toThrow(
      "docs/explanation/performance.md: the link ../../bench/NOPE.md leads to bench/NOPE.md, which does not exist",
    );
  });
});

describe("repositoryWebUrl", () => {
  it.each([
    [
      "git+https://github.com/wisent-framework/wisent.git",
      "https://github.com/wisent-framework/wisent",
    ],
    [{ url: "https://github.com/o/r" }, "https://github.com/o/r"],
  ])("%j -> %s", (repository, url) => {
    expect(repositoryWebUrl({ repository })).toBe(url);
  });

  it("refuses a repository that is not on GitHub", () => {
    expect(() => repositoryWebUrl({})).toThrow("not a GitHub repository");
  });
});
