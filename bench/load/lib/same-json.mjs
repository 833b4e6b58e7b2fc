/**
 * The equal-work API peers (peers/api-*.mjs) must answer like the Wisent API app: the same body
 * bytes but for ids and dates, the same status, and the same headers but for the per-request
 * ones (date, request id, the ETag of a body holding other ids and dates) and two spellings
 * each framework fixes: Fastify appends `; charset=utf-8` to a JSON content type, and helmet
 * joins CSP directives without a space. Throws naming the first difference.
 */
const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const PER_REQUEST = new Set(["date", "x-request-id", "etag", "keep-alive", "connection"]);

const masked = (text) =>
  text
    .replace(ID, "<id>")
    .replace(DATE, "<date>")
    .replace(/:\d+\//g, ":<port>/");

function headersOf(res) {
  const headers = {};
  for (const [name, value] of res.headers) {
    if (PER_REQUEST.has(name)) {
      headers[name] = "<per request>";
      continue;
    }
    let v = value;
    if (name === "content-type") v = v.replace(/; charset=utf-8$/i, "");
    if (name === "content-security-policy") v = v.replace(/;\s*/g, "; ");
    headers[name] = masked(v);
  }
  return headers;
}

async function answer(url, workload) {
  const res = await fetch(url + workload.paths[0], {
    method: workload.method ?? "GET",
    headers: workload.headers,
    body: workload.body,
  });
  return { status: res.status, headers: headersOf(res), body: masked(await res.text()) };
}

/** Compares each equal-work peer's answer to the Wisent API app's for `workload`. */
export async function sameJson(servers, workload, peers = ["fastify-api", "hono-api"]) {
  const expected = await answer(servers.get("wisent-api").url, workload);
  for (const name of peers) {
    if (!servers.has(name)) continue;
    const actual = await answer(servers.get(name).url, workload);
    const a = JSON.stringify(actual, null, 1);
    const e = JSON.stringify(expected, null, 1);
    if (a !== e) {
      throw new Error(
        `${name} ${workload.name}: answers unlike the Wisent API app:\n  wisent-api: ${e}\n  ${name}: ${a}`,
      );
    }
  }
}
