import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { WisentRuntime } from "../app/runtime.js";
import { type Format, negotiateFormat } from "./format.js";
import { rememberPathFormat } from "./path-format.js";

function appFor(api: boolean, offered: Format[] | undefined) {
  const app = new Hono();
  app.onError((err, c) => c.text(`${(err as { status?: number }).status}:${err.message}`, 500));
  app.all("*", (c) => {
    c.set("wisent", { name: "shop", env: "test", api } as WisentRuntime);
    return c.text(offered ? negotiateFormat(c, offered) : negotiateFormat(c));
  });
  return app;
}

async function formatOf(
  headers: Record<string, string>,
  {
    api = false,
    query = "",
    pathFormat,
    offered,
  }: { api?: boolean; query?: string; pathFormat?: Format; offered?: Format[] } = {},
) {
  const request = new Request(`http://localhost/widgets/1${query}`, { method: "POST", headers });
  if (pathFormat) rememberPathFormat(request, pathFormat);
  const res = await appFor(api, offered).fetch(request);
  return res.text();
}

/** Real Accept headers, as each client sends them for a page or an API call. */
const CHROMIUM =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const FIREFOX = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const SAFARI = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const CURL = "*/*";
const HTTPIE = "application/json, */*;q=0.5";
const AXIOS = "application/json, text/plain, */*";
const JQUERY_JSON = "application/json, text/javascript, */*; q=0.01";
const JQUERY_DEFAULT = "*/*";
const FETCH = "*/*";

const API_ACTION: Format[] = ["json", "xml"];
const FORM_PAGE: Format[] = ["html"];

/**
 * One row a case: the request (headers, API app or web app, `?format=`, extension), the formats
 * the action answers (`offered`, all three when left out), and the answer: a format, or the
 * error's `status:message`.
 */
const cases: {
  name: string;
  headers: Record<string, string>;
  api?: boolean;
  query?: string;
  pathFormat?: Format;
  offered?: Format[];
  want: string;
}[] = [
  { name: "no headers: HTML", headers: {}, want: "html" },
  { name: "no headers in an API app: JSON", headers: {}, api: true, want: "json" },
  { name: "Chromium", headers: { accept: CHROMIUM }, want: "html" },
  { name: "Firefox", headers: { accept: FIREFOX }, want: "html" },
  { name: "Safari", headers: { accept: SAFARI }, want: "html" },
  // Issue 31: an API action answers browsers in its best acceptable format, not 406.
  {
    name: "Chromium on an API action: XML weighs 0.9, JSON 0.8",
    headers: { accept: CHROMIUM },
    api: true,
    offered: API_ACTION,
    want: "xml",
  },
  {
    name: "text/html, */*;q=0.8 on a JSON-only action: JSON",
    headers: { accept: "text/html, */*;q=0.8" },
    api: true,
    offered: ["json"],
    want: "json",
  },
  {
    name: "text/html, */*;q=0.8 on an API action: a tie, the app's first (JSON)",
    headers: { accept: "text/html, */*;q=0.8" },
    api: true,
    offered: API_ACTION,
    want: "json",
  },
  { name: "curl", headers: { accept: CURL }, want: "html" },
  { name: "curl in an API app", headers: { accept: CURL }, api: true, want: "json" },
  {
    name: "curl with a JSON body",
    headers: { accept: CURL, "content-type": "application/json" },
    want: "json",
  },
  { name: "HTTPie", headers: { accept: HTTPIE }, want: "json" },
  {
    name: "HTTPie on an HTML-only page (New, Edit): HTML, accepted at 0.5",
    headers: { accept: HTTPIE },
    offered: FORM_PAGE,
    want: "html",
  },
  {
    name: "axios: its named JSON beats the */* of the same q",
    headers: { accept: AXIOS },
    want: "json",
  },
  {
    name: "axios on an API action",
    headers: { accept: AXIOS },
    api: true,
    offered: API_ACTION,
    want: "json",
  },
  { name: "jQuery's getJSON", headers: { accept: JQUERY_JSON }, want: "json" },
  { name: "jQuery's default", headers: { accept: JQUERY_DEFAULT }, want: "html" },
  { name: "fetch() in an API app", headers: { accept: FETCH }, api: true, want: "json" },
  {
    name: "text/plain: nothing acceptable",
    headers: { accept: "text/plain" },
    want: "406:not acceptable: Accept: text/plain accepts none of the formats this app answers (html, json, xml)",
  },
  {
    name: "image/png on an action: 406 listing what it answers",
    headers: { accept: "image/png" },
    offered: API_ACTION,
    want: "406:not acceptable: Accept: image/png accepts none of the formats this action answers (json, xml)",
  },
  {
    name: "application/json on an HTML-only page: 406",
    headers: { accept: "application/json" },
    offered: FORM_PAGE,
    want: "406:not acceptable: Accept: application/json accepts none of the formats this action answers (html)",
  },
  { name: "application/json", headers: { accept: "application/json" }, want: "json" },
  { name: "application/xml", headers: { accept: "application/xml" }, want: "xml" },
  { name: "text/xml", headers: { accept: "text/xml" }, want: "xml" },
  { name: "vendor +json", headers: { accept: "application/vnd.api+json" }, want: "json" },
  {
    name: "xhtml alone is HTML, not XML",
    headers: { accept: "application/xhtml+xml" },
    want: "html",
  },
  { name: "text/* is HTML", headers: { accept: "text/*" }, want: "html" },
  {
    name: "text/* on an API action: JSON and XML are sent as application/*",
    headers: { accept: "text/*" },
    offered: API_ACTION,
    want: "406:not acceptable: Accept: text/* accepts none of the formats this action answers (json, xml)",
  },
  {
    name: "no XML body preference when XML is not offered",
    headers: { accept: "*/*", "content-type": "application/xml" },
    offered: ["html", "json"],
    want: "html",
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
    name: "ties go to the app's first format offered",
    headers: { accept: "application/xml, application/json" },
    want: "json",
  },
  {
    name: "q=0 refuses html; wildcard picks the next",
    headers: { accept: "text/html;q=0, */*" },
    want: "json",
  },
  {
    name: "q=0 on the only type named: nothing acceptable",
    headers: { accept: "application/json;q=0" },
    want: "406:not acceptable: Accept: application/json;q=0 accepts none of the formats this app answers (html, json, xml)",
  },
  {
    name: "*/*;q=0 refuses everything",
    headers: { accept: "*/*;q=0" },
    offered: API_ACTION,
    want: "406:not acceptable: Accept: */*;q=0 accepts none of the formats this action answers (json, xml)",
  },
  {
    name: "a specific type's q overrides the wildcard's",
    headers: { accept: "*/*;q=1, application/xml;q=0.2" },
    want: "html",
  },
  {
    name: "a named type beats a wildcard of the same q",
    headers: { accept: "*/*, application/xml" },
    want: "xml",
  },
  {
    name: "Accept beats the body's type",
    headers: { accept: "application/xml", "content-type": "application/json" },
    want: "xml",
  },
  { name: "garbage Accept: default", headers: { accept: ";;,," }, want: "html" },
  {
    name: "?format=json beats Accept",
    headers: { accept: "text/html" },
    query: "?format=json",
    want: "json",
  },
  { name: "?format=XML (any case)", headers: {}, query: "?format=XML", want: "xml" },
  {
    name: "?format=json on an HTML-only page",
    headers: {},
    query: "?format=json",
    offered: FORM_PAGE,
    want: "406:not acceptable: json was asked for (?format=json), this action answers html",
  },
  {
    name: "path extension beats ?format",
    headers: {},
    query: "?format=json",
    pathFormat: "xml",
    want: "xml",
  },
  {
    name: "an extension the action does not answer",
    headers: {},
    pathFormat: "html",
    offered: API_ACTION,
    want: "406:not acceptable: html was asked for (.html), this action answers json, xml",
  },
  {
    name: "unknown ?format is a 406",
    headers: {},
    query: "?format=yaml",
    want: '406:unknown format "yaml": use html, json or xml',
  },
];

describe("negotiateFormat", () => {
  it.each(cases)("$name", async ({ headers, api, query, pathFormat, offered, want }) => {
    expect(await formatOf(headers, { api, query, pathFormat, offered })).toBe(want);
  });
});
