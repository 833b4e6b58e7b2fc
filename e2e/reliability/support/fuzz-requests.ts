import { METHODS as PARSED_METHODS } from "node:http";
import type { Prng } from "./prng.js";
import type { RawSending } from "./raw-exchange.js";

/** The app's body limit (the framework's default, 1 MiB). */
export const BODY_LIMIT = 1024 * 1024;
/** Node's limit on a request's header bytes (request line and headers). */
const HEADER_LIMIT = 16 * 1024;

/**
 * One generated request: sent with node:http, or as raw bytes (trickled or cut short when
 * `sending` says) for what node:http refuses. `within` is true when the request is well-formed
 * HTTP with its body (if any) within the limit and its headers within Node's: the requests that
 * must always see their answer, never a reset.
 */
export type FuzzRequest =
  | {
      kind: "http";
      label: string;
      within: boolean;
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: Buffer;
    }
  | { kind: "raw"; label: string; within: boolean; bytes: Buffer; sending?: RawSending };

const METHODS = [
  "GET",
  "GET",
  "POST",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "FOO",
];
const SQL = [
  "' OR '1'='1",
  "1; DROP TABLE widgets; --",
  '"); DELETE FROM widgets; --',
  "%' --",
  "\\'; --",
];
const WEIRD = [
  "..",
  "%2e%2e",
  "..%2f..%2fetc%2fpasswd",
  "%",
  "%ZZ",
  "%C0%AE%C0%AE",
  "%00",
  "%ff%fe",
  "\u00e9\u4e2d\u{1f600}",
  "a".repeat(3000),
  "new",
  "edit",
  "{widget_id}",
  ":widget_id",
  "*",
  "null",
  "-1",
  "0",
  "1e309",
];
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=XyZ",
  "multipart/form-data",
  "application/xml",
  "text/xml",
  "text/plain",
  "application/octet-stream",
  "application/vnd.api+json",
  "application/json; charset=latin1",
  "image/png",
  ";;;",
  "",
];
const ACCEPTS = [
  "application/json",
  "application/xml",
  "text/html",
  "*/*",
  "text/html;q=0, application/json;q=0",
  "application/json;q=abc",
  "image/png",
  "*/*;q=0.5, text/*;q=NaN",
  ",,,",
  "a".repeat(5000),
];

function segment(rng: Prng, ids: string[]): string {
  const roll = rng.int(0, 9);
  if (roll < 4 && ids.length > 0) return rng.pick(ids);
  if (roll < 6) return rng.pick(WEIRD);
  if (roll < 7) return encodeURIComponent(rng.pick(SQL));
  if (roll < 8) return rng.pick(SQL).replace(/ /g, "%20");
  return rng.string(rng.int(1, 40), "abcdefghijklmnopqrstuvwxyz0123456789-_.~%");
}

function path(rng: Prng, ids: string[]): string {
  const shapes = [
    () => "/",
    () => "/widgets",
    () => "/widgets/",
    () => "/widgets/new",
    () => `/widgets/${segment(rng, ids)}`,
    () => `/widgets/${segment(rng, ids)}/edit`,
    () => `/widgets/${segment(rng, ids)}/images`,
    () => `/widgets/${segment(rng, ids)}/images/${segment(rng, ids)}`,
    () => `/widgets${rng.pick([".json", ".xml", ".html", ".exe", ".", ".JSON", ".json.xml"])}`,
    () => `/widgets/${segment(rng, ids)}${rng.pick([".json", ".xml", ".txt"])}`,
    () => `/${segment(rng, ids)}`,
    () => `/${segment(rng, ids)}/${segment(rng, ids)}/${segment(rng, ids)}`,
    () =>
      rng.pick([
        "/robots.txt",
        "/application.js",
        "/../package.json",
        "/%2e%2e/package.json",
        "//etc/passwd",
      ]),
  ];
  let p = rng.pick(shapes)();
  if (rng.chance(0.5)) p += `?${query(rng)}`;
  // node:http refuses to send spaces and non-ASCII in a path; raw requests cover those.
  return p.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

function query(rng: Prng): string {
  const parts: string[] = [];
  for (let i = rng.int(0, 6); i > 0; i--) {
    const key = rng.pick([
      "page",
      "per_page",
      "format",
      "_method",
      "title",
      "q[]",
      "a[b][c]",
      "__proto__",
      "constructor[prototype][x]",
      rng.string(rng.int(1, 10), "abcxyz_[]%"),
    ]);
    const value = rng.pick([
      "1",
      "-5",
      "0",
      "99999999999999999999",
      "1e309",
      "NaN",
      "xml",
      "json",
      "html",
      "DELETE",
      "PUT",
      "%",
      "%E0%A4%A",
      encodeURIComponent(rng.pick(SQL)),
      "a".repeat(rng.int(0, 4000)),
    ]);
    parts.push(`${key}=${value}`);
  }
  return parts.join(rng.chance(0.9) ? "&" : ";");
}

function deepJson(depth: number): string {
  return `{"title":${"[".repeat(depth)}1${"]".repeat(depth)}}`;
}
function deepObject(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<widget><title>&lol9;</title></widget>`;
const EXTERNAL_ENTITY = `<?xml version="1.0"?>
<!DOCTYPE widget [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<widget><title>&xxe;</title></widget>`;

function body(rng: Prng, contentType: string): Buffer {
  const media = contentType.split(";")[0]!.trim();
  const pick = rng.int(0, 9);
  if (pick === 0) return rng.bytes(rng.int(1, 2000)); // binary garbage, broken encodings
  if (pick === 1)
    return Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]);
  // At the limit, one byte either side of it, and far over it.
  if (pick === 2)
    return Buffer.alloc(
      rng.pick([BODY_LIMIT - 1, BODY_LIMIT, BODY_LIMIT + 1, 2 * BODY_LIMIT]),
      0x61,
    );
  if (media.includes("json")) {
    return Buffer.from(
      rng.pick([
        () => JSON.stringify({ title: rng.pick(SQL), description: rng.pick(WEIRD) }),
        () => JSON.stringify({ title: rng.string(rng.int(0, 600), "ab<>&\"'`\u00e9") }),
        () => deepJson(rng.pick([100, 5_000, 100_000])),
        () => deepObject(rng.pick([100, 5_000, 100_000])),
        () => '{"title": "unterminated',
        () => "[1,2,3]",
        () => "null",
        () => '"just a string"',
        () => '{"__proto__": {"admin": true}, "title": "proto"}',
        () => '{"title": {"$gt": ""}}',
        () =>
          `{"title": "x", "widget_id": "${rng.pick(SQL)}", "id": "spoofed", "created_at": "never"}`,
        () => `{"title": 1e999, "description": -0}`,
      ])(),
    );
  }
  if (media.includes("xml")) {
    return Buffer.from(
      rng.pick([
        () => BILLION_LAUGHS,
        () => EXTERNAL_ENTITY,
        () => `<widget>${"<a>".repeat(5000)}x${"</a>".repeat(5000)}</widget>`,
        () => `<widget><title>${rng.pick(SQL)}</title></widget>`,
        () => "<widget><title>unclosed</widget>",
        () => "<?xml version='1.0' encoding='EBCDIC'?><widget/>",
        () => "not xml at all",
      ])(),
    );
  }
  if (media === "application/x-www-form-urlencoded") {
    return Buffer.from(
      rng.pick([
        () => `title=${encodeURIComponent(rng.pick(SQL))}&description=%`,
        () => "title=%E0%A4%A&description=%ZZ",
        () => `${"a[".repeat(2000)}]=1`,
        () => Array.from({ length: 5000 }, (_, i) => `k${i}=v`).join("&"),
        () => "title=x&title=y&title[]=z&_method=DELETE&authenticity_token=forged",
        () => `password=hunter2&title=${"x".repeat(300)}`,
      ])(),
    );
  }
  if (media === "multipart/form-data") {
    return Buffer.from(
      rng.pick([
        () => '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nmulti\r\n--XyZ--\r\n',
        () => '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nno end',
        () => "--WRONG\r\n\r\n",
        () =>
          `--XyZ\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\nContent-Type: text/plain\r\n\r\n${"z".repeat(1000)}\r\n--XyZ--\r\n`,
      ])(),
    );
  }
  return Buffer.from(rng.string(rng.int(0, 500), "abc=&%;\n\r\t\u0000"));
}

function headers(rng: Prng): Record<string, string> {
  const h: Record<string, string> = {};
  if (rng.chance(0.7)) h.accept = rng.pick(ACCEPTS);
  if (rng.chance(0.2))
    h["accept-language"] = rng.pick([
      "de-CH,de;q=0.9",
      "*",
      "xx-YY;q=2",
      "a".repeat(3000),
      ",;q=,",
    ]);
  if (rng.chance(0.2)) {
    h.cookie = rng.pick([
      "_shop_session=Fe26.2**garbage",
      "_shop_session=",
      `_shop_session=${"A".repeat(4000)}`,
      "lang=../../etc; _shop_session=%",
      "a=b; a=c; ;;; =",
    ]);
  }
  if (rng.chance(0.1)) h["x-forwarded-proto"] = rng.pick(["https", "http", "gopher", ""]);
  if (rng.chance(0.1))
    h["x-request-id"] = rng
      .pick(["ok-1", "a".repeat(5000), "<script>", "\u00e9"])
      .replace(/[^\x20-\x7e]/g, "?");
  if (rng.chance(0.1))
    h.origin = rng.pick(["http://evil.example", "null", "::::", "http://127.0.0.1"]);
  if (rng.chance(0.1)) h["sec-fetch-site"] = rng.pick(["cross-site", "same-origin", "none", "???"]);
  if (rng.chance(0.1)) h["x-csrf-token"] = rng.pick(["", "x", "A".repeat(86), "%%%"]);
  if (rng.chance(0.05)) h["x-huge"] = "h".repeat(rng.pick([1_000, 8_000, 15_000]));
  if (rng.chance(0.05)) h["if-none-match"] = rng.pick(['"x"', "*", 'W/"1"']);
  // Forged, invalid and odd Hosts (node:http sends what it is given).
  if (rng.chance(0.05))
    h.host = rng.pick([
      "evil.example",
      "1.2.3.256",
      "[::1",
      "x:99999999",
      "127.0.0.1:1",
      "a_b",
      "xn--zz",
      "a.xn--",
    ]);
  return h;
}

/** A raw request: its bytes, whether it is `within` the limits (default true), how to send it. */
interface RawShape {
  bytes: string | Buffer;
  within?: boolean;
  sending?: RawSending;
}
const over = (bytes: string | Buffer): RawShape => ({ bytes, within: false });
/** Refused by Node's parser (not HTTP/1.1 it accepts): answered 400 and closed, or just closed. */
const malformed = over;

const RAW: ((rng: Prng) => string | Buffer | RawShape)[] = [
  () =>
    over(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(100_000)}\r\nConnection: close\r\n\r\n`),
  () => over(`GET /${"p".repeat(100_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
  () => malformed("GARBAGE\r\n\r\n"),
  () => malformed("GET / HTTP/9.9\r\nHost: x\r\n\r\n"),
  () => malformed("GET /\r\n\r\n"),
  () => malformed("GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\nConnection: close\r\n\r\n"),
  () => malformed("GET / HTTP/1.1\r\nHost: x\r\nX-Ctl: a\u0001b\r\nConnection: close\r\n\r\n"),
  () =>
    malformed(
      "POST /widgets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\nConnection: close\r\n\r\nhello",
    ),
  () =>
    malformed(
      "POST /widgets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\nConnection: close\r\n\r\n0\r\n\r\n",
    ),
  () =>
    malformed(
      "POST /widgets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nConnection: close\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n",
    ),
  () =>
    "POST /widgets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n0\r\n\r\n",
  () => "GET http://evil.example/widgets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
  () => malformed("GET /widgets HTTP/1.1\nHost: x\nConnection: close\n\n"),
  () => "GET /widgets HTTP/1.0\r\n\r\n",
  () => `GET /widgets/%${"%".repeat(10)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  () => malformed("\r\n\r\n\r\n"),
  (rng) => malformed(rng.bytes(rng.int(1, 3000))),
  () =>
    over(
      `GET / HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join("\r\n")}\r\nConnection: close\r\n\r\n`,
    ),
  // The edge rules' classes (see edge.test.ts): methods with bodies, CONNECT, forged Hosts,
  // codings, Expect, bodies at and over the 1 MiB limit to refused routes.
  (rng) =>
    `${rng.pick(["GET", "HEAD", "TRACE", "OPTIONS", "DELETE"])} /widgets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`,
  () => "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n",
  (rng) =>
    `GET /widgets HTTP/1.1\r\n${rng.pick(["Host: 1.2.3.256", 'Host: a"b', "Host: a\r\nHost: b", "Host: [::1", "Host: x:99999999"])}\r\nConnection: close\r\n\r\n`,
  (rng) =>
    `POST /widgets.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${rng.pick(["Transfer-Encoding: gzip, chunked", "Content-Encoding: br\r\nTransfer-Encoding: chunked", "Content-Encoding: gzip\r\nTransfer-Encoding: chunked"])}\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  () =>
    over(
      `POST /widgets.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY_LIMIT + 1}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    ),
  // Bodies at and around the limit, to refused routes and to the create.
  (rng) => {
    const size = rng.pick([BODY_LIMIT - 1, BODY_LIMIT, BODY_LIMIT + 1, 300 * 1024]);
    const target = rng.pick([
      "POST /no-such-page",
      "POST /widgets",
      "POST /widgets.json",
      "DELETE /widgets",
      "PUT /widgets/new",
      "GET /widgets",
    ]);
    const head = `${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`;
    return {
      bytes: Buffer.concat([Buffer.from(head, "latin1"), Buffer.alloc(size, 0x61)]),
      within: size <= BODY_LIMIT,
    };
  },
  // More forged Hosts: a foreign one, a port that is not ours, empty, none at all (HTTP/1.1).
  (rng) =>
    `GET /widgets HTTP/1.1\r\n${rng.pick(["Host: evil.example", "Host: 127.0.0.1:1", "Host:", "Host: a..b", "X-No-Host: 1"])}\r\nConnection: close\r\n\r\n`,
  // Trickled headers (and a small body): a few bytes every few milliseconds.
  (rng) => ({
    bytes: rng.pick([
      "GET /widgets HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n",
      'POST /widgets.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{"title":"slow"}\n',
      "TRACE /widgets HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    ]),
    sending: { trickle: { bytes: rng.int(1, 16), everyMs: rng.int(1, 15) } },
  }),
  // Sockets the client closes early: mid request line, mid headers, mid body, or right after a
  // whole request without reading the answer.
  (rng) => {
    const request =
      'POST /widgets.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":"cut"';
    const closeAfter = rng.pick([5, 30, request.length - 10, request.length]);
    return {
      bytes: rng.chance(0.5) ? request : "GET /widgets HTTP/1.1\r\nHost: x\r\n\r\n",
      within: false,
      sending: { closeAfter },
    };
  },
];

/** The `n`th request of a run; the same PRNG state gives the same request. */
export function generateRequest(rng: Prng, ids: string[]): FuzzRequest {
  if (rng.chance(0.12)) {
    const index = rng.int(0, RAW.length - 1);
    const made = RAW[index]!(rng);
    const shape = typeof made === "string" || Buffer.isBuffer(made) ? { bytes: made } : made;
    const bytes = Buffer.isBuffer(shape.bytes) ? shape.bytes : Buffer.from(shape.bytes, "latin1");
    const how = shape.sending?.trickle ? " trickled" : shape.sending?.closeAfter ? " cut" : "";
    return {
      kind: "raw",
      label: `raw#${index}${how}`,
      within: shape.within ?? true,
      bytes,
      ...(shape.sending ? { sending: shape.sending } : {}),
    };
  }
  const method = rng.pick(METHODS);
  // A method Node's HTTP parser does not know (FOO) makes the request malformed: the parser's
  // error answers it 400 and closes, and a large body still being sent can cut that answer off.
  const parsed = PARSED_METHODS.includes(method);
  const h = headers(rng);
  const p = path(rng, ids);
  const withoutBody = ["GET", "HEAD", "TRACE"].includes(method) ? rng.chance(0.8) : rng.chance(0.1);
  if (withoutBody) {
    return {
      kind: "http",
      label: `${method} ${p.slice(0, 80)}`,
      within: parsed && headerBytes(method, p, h) <= HEADER_LIMIT,
      method,
      path: p,
      headers: h,
    };
  }
  const contentType = rng.pick(CONTENT_TYPES);
  if (contentType) h["content-type"] = contentType;
  const b = body(rng, contentType);
  return {
    kind: "http",
    label: `${method} ${p.slice(0, 80)} [${contentType || "no type"}, ${b.length} B]`,
    within: parsed && b.length <= BODY_LIMIT && headerBytes(method, p, h) <= HEADER_LIMIT,
    method,
    path: p,
    headers: h,
    body: b,
  };
}

/** About what the request line and headers take on the wire (node:http adds a few more). */
function headerBytes(method: string, path: string, headers: Record<string, string>): number {
  let n = method.length + path.length + 64;
  for (const [name, value] of Object.entries(headers)) n += name.length + value.length + 4;
  return n;
}
