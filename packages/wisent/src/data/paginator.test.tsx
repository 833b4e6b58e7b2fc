/** @jsxRuntime classic */
/** @jsx h */

import { describe, expect, it } from "vitest";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import type { Paginator as PaginatorData } from "./pagination.js";
import { Paginator, pageSlots } from "./paginator.js";

const data = (page: number, totalPages: number): PaginatorData => ({
  page,
  per_page: 20,
  offset: (page - 1) * 20,
  total_entries_size: totalPages * 20,
  current_entries_size: 20,
  total_pages: totalPages,
});

const render = (page: number, totalPages: number, url = "/foo") =>
  String(<Paginator paginator={data(page, totalPages)} url={url} />);

// Buffalo's markup (tags pagination_test.go), inside a labelled <nav>, with aria-current on the
// current page and accessible names on the arrows; Buffalo's stray leading space in the class is gone.
const prev = (href?: string) =>
  href
    ? `<li class="page-item"><a class="page-link" href="${href}" aria-label="Previous page">«</a></li>`
    : `<li class="page-item disabled"><span class="page-link">«</span></li>`;
const next = (href?: string) =>
  href
    ? `<li class="page-item"><a class="page-link" href="${href}" aria-label="Next page">»</a></li>`
    : `<li class="page-item disabled"><span class="page-link">»</span></li>`;
const num = (n: number, current: number, path = "/foo") =>
  n === current
    ? `<li class="page-item active"><a class="page-link" href="${path}?page=${n}" aria-current="page">${n}</a></li>`
    : `<li class="page-item"><a class="page-link" href="${path}?page=${n}">${n}</a></li>`;
const gap = `<li class="page-item disabled"><span class="page-link">...</span></li>`;
const nav = (items: string) =>
  `<nav aria-label="Pagination"><ul class="pagination">${items}</ul></nav>`;
const nums = (from: number, to: number, current: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => num(from + i, current)).join("");

describe("Paginator (golden markup from Buffalo's tests)", () => {
  it("page 1 of 3", () => {
    expect(render(1, 3)).toBe(nav(prev() + nums(1, 3, 1) + next("/foo?page=2")));
  });
  it("page 2 of 3", () => {
    expect(render(2, 3)).toBe(nav(prev("/foo?page=1") + nums(1, 3, 2) + next("/foo?page=3")));
  });
  it("page 3 of 3", () => {
    expect(render(3, 3)).toBe(nav(prev("/foo?page=2") + nums(1, 3, 3) + next()));
  });
  it("page 1 of 29: 1-9, ellipsis, 29", () => {
    expect(render(1, 29)).toBe(
      nav(prev() + nums(1, 9, 1) + gap + num(29, 1) + next("/foo?page=2")),
    );
  });
  it("page 6 of 29: 1-9, ellipsis, 29", () => {
    expect(render(6, 29)).toBe(
      nav(prev("/foo?page=5") + nums(1, 9, 6) + gap + num(29, 6) + next("/foo?page=7")),
    );
  });
  it("page 23 of 29: 1, ellipsis, 20-26, ellipsis, 29", () => {
    expect(render(23, 29)).toBe(
      nav(
        prev("/foo?page=22") +
          num(1, 23) +
          gap +
          nums(20, 26, 23) +
          gap +
          num(29, 23) +
          next("/foo?page=24"),
      ),
    );
  });
  it("page 24 of 29: 1, ellipsis, 21-29", () => {
    expect(render(24, 29)).toBe(
      nav(prev("/foo?page=23") + num(1, 24) + gap + nums(21, 29, 24) + next("/foo?page=25")),
    );
  });
  it("renders nothing for a single page", () => {
    expect(render(1, 1)).toBe("");
    expect(render(1, 0)).toBe("");
  });
  it("keeps other query parameters and escapes & in links", () => {
    const html = render(1, 2, "/widgets/?per_page=5&q=x");
    expect(html).toContain('href="/widgets/?per_page=5&amp;q=x&amp;page=2"');
  });
  it("links by path when given the full request URL (c.req.url), never to another origin", () => {
    const html = render(1, 2, "http://localhost:3000/widgets?per_page=5");
    expect(html).toContain('href="/widgets?per_page=5&amp;page=2"');
    expect(html).not.toContain("localhost");
    expect(render(1, 2, new URL("https://shop.example/w?q=1") as unknown as string)).toContain(
      'href="/w?q=1&amp;page=2"',
    );
  });
});

describe("pageSlots", () => {
  it.each([
    [1, 11, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
    [12, 12, [1, "gap", 4, 5, 6, 7, 8, 9, 10, 11, 12]],
    [7, 29, [1, "gap", 4, 5, 6, 7, 8, 9, 10, "gap", 29]],
  ])("page %i of %i", (page, total, slots) => {
    expect(pageSlots(page, total)).toEqual(slots);
  });
});

describe("Paginator of a long list", () => {
  const about = `<li class="page-item disabled"><span class="page-link">about 2,000,000</span></li>`;
  const last = `<li class="page-item"><a class="page-link" href="/foo?before=" aria-label="Last page">Last</a></li>`;

  it("shows the estimate, links the pages within the offset limit, then goes on by cursor", () => {
    // The default offset limit (10,000 rows) reaches page 501 at 20 a page.
    const estimated: PaginatorData = {
      ...data(501, 100_000),
      total_entries_size: 2_000_000,
      total_entries_estimated: true,
      next_cursor: "Wy0xXQ",
    };
    expect(String(<Paginator paginator={estimated} url="/foo" />)).toBe(
      nav(
        `${prev("/foo?page=500")}${num(1, 501)}${gap}${nums(493, 501, 501)}${gap}${about}${next("/foo?after=Wy0xXQ")}${last}`,
      ),
    );
    const first: PaginatorData = { ...estimated, page: 1, offset: 0 };
    expect(String(<Paginator paginator={first} url="/foo" />)).toBe(
      nav(
        `${prev()}${nums(1, 9, 1)}${gap}${num(501, 1)}${gap}${about}${next("/foo?page=2")}${last}`,
      ),
    );
  });

  it("links a cursor page's neighbours by cursor, and nothing when it has none", () => {
    const cursorPage: PaginatorData = {
      page: null,
      per_page: 20,
      offset: null,
      total_entries_size: null,
      current_entries_size: 20,
      total_pages: null,
      cursor: "after",
      prev_cursor: "cA",
      next_cursor: "nB",
    };
    expect(String(<Paginator paginator={cursorPage} url="/foo?after=x&q=1" />)).toBe(
      nav(
        `<li class="page-item"><a class="page-link" href="/foo?q=1&amp;after=" aria-label="First page">1</a></li>${prev("/foo?q=1&amp;before=cA")}${next("/foo?q=1&amp;after=nB")}`,
      ),
    );
    const alone = { ...cursorPage, prev_cursor: undefined, next_cursor: undefined };
    expect(String(<Paginator paginator={alone} url="/foo" />)).toBe("");
  });
});
