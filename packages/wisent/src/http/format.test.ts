import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { rememberPathFormat } from "../app/path-format.js";
import type { WisentRuntime } from "../app/runtime.js";
import { type Format, negotiateFormat } from "./format.js";

function appFor(api: boolean) {
  const app = new Hono();
  app.onError((err, c) => c.text(`${(err as { status?: number }).status}:${err.message}`, 500));
  app.all("*", (c) => {
    c.set("wisent", { name: "shop", env: "test", api } as WisentRuntime);
    return c.text(negotiateFormat(c));
  });
  return app;
}

async function formatOf(
  headers: Record<string, string>,
  {
    api = false,
    query = "",
    pathFormat,
  }: { api?: boolean; query?: string; pathFormat?: Format } = {},
) {
  const request = new Request(`http://localhost/widgets/1${query}`, { method: "POST", headers });
  if (pathFormat) rememberPathFormat(request, pathFormat);
  const res = await appFor(api).fetch(request);
  return res.text();
}

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8";

const cases: {
  name: string;
  headers: Record<string, string>;
  api?: boolean;
  query?: string;
  pathFormat?: Format;
  want: string;
}[] = [
  { name: "no headers: HTML", headers: {}, want: "html" },
  { name: "no headers in an API app: JSON", headers: {}, api: true, want: "json" },
  { name: "a browser's Accept", headers: { accept: BROWSER }, want: "html" },
  { name: "application/json", headers: { accept: "application/json" }, want: "json" },
  { name: "application/xml", headers: { accept: "application/xml" }, want: "xml" },
  { name: "text/xml", headers: { accept: "text/xml" }, want: "xml" },
  { name: "vendor +json", headers: { accept: "application/vnd.api+json" }, want: "json" },
  {
    name: "xhtml alone is HTML, not XML",
    headers: { accept: "application/xhtml+xml" },
    want: "html",
  },
  { name: "*/* alone: default", headers: { accept: "*/*" }, want: "html" },
  { name: "*/* alone in an API app", headers: { accept: "*/*" }, api: true, want: "json" },
  {
    name: "*/* with a JSON body (curl)",
    headers: { accept: "*/*", "content-type": "application/json" },
    want: "json",
  },
  { name: "no Accept, XML body", headers: { "content-type": "application/xml" }, want: "xml" },
  {
    name: "form body stays HTML",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    want: "html",
  },
  {
    name: "form body in an API app stays JSON",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    api: true,
    want: "json",
  },
  {
    name: "q-values decide",
    headers: { accept: "text/html;q=0.5, application/json;q=0.9" },
    want: "json",
  },
  {
    name: "ties go to the first listed",
    headers: { accept: "application/xml, application/json" },
    want: "xml",
  },
  {
    name: "q=0 refuses html; wildcard picks the next",
    headers: { accept: "text/html;q=0, */*" },
    want: "json",
  },
  {
    name: "q=0 on the only specific type",
    headers: { accept: "application/json;q=0" },
    want: "html",
  },
  {
    name: "a specific type beats a higher wildcard",
    headers: { accept: "*/*;q=1, application/xml;q=0.2" },
    want: "xml",
  },
  {
    name: "Accept beats the body's type",
    headers: { accept: "application/xml", "content-type": "application/json" },
    want: "xml",
  },
  { name: "unknown types: default", headers: { accept: "image/png" }, want: "html" },
  { name: "garbage Accept: default", headers: { accept: ";;,," }, want: "html" },
  {
    name: "?format=json beats Accept",
    headers: { accept: "text/html" },
    query: "?format=json",
    want: "json",
  },
  { name: "?format=XML (any case)", headers: {}, query: "?format=XML", want: "xml" },
  {
    name: "path extension beats ?format",
    headers: {},
    query: "?format=json",
    pathFormat: "xml",
    want: "xml",
  },
  {
    name: "unknown ?format is a 406",
    headers: {},
    query: "?format=yaml",
    want: '406:unknown format "yaml": use html, json or xml',
  },
];

describe("negotiateFormat", () => {
  it.each(cases)("$name", async ({ headers, api, query, pathFormat, want }) => {
    expect(await formatOf(headers, { api, query, pathFormat })).toBe(want);
  });
});
