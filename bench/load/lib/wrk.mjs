/** Runs wrk (Debian's package) with a generated Lua script; parses its JSON summary line. */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOAD_CORE, onCore } from "./cpus.mjs";

const lua = (value) => JSON.stringify(value); // JSON strings are valid Lua strings here (ASCII).

/**
 * Writes a Lua script for a workload: { method, paths (rotated), headers, body }.
 * The done() hook prints one JSON line with the counts and latency percentiles.
 */
export function writeScript(dir, name, { method = "GET", paths, headers = {}, body }) {
  const headerLines = Object.entries(headers)
    .map(([k, v]) => `headers[${lua(k)}] = ${lua(v)}`)
    .join("\n");
  const script = `
local paths = { ${paths.map(lua).join(", ")} }
local n = #paths
local i = 0
local headers = {}
${headerLines}
local body = ${body === undefined ? "nil" : lua(body)}
request = function()
  i = i % n + 1
  return wrk.format(${lua(method)}, paths[i], headers, body)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
`;
  const file = join(dir, `${name}.lua`);
  writeFileSync(file, script);
  return file;
}

/**
 * Writes a Lua script sending `requests` ({ method, path, headers, body }) in turn, and counting
 * the answers by status (the `statuses` of {@link runWrk}'s result; wrk itself counts every 4xx
 * as an error, which a mix holding a 404 and a 422 expects).
 */
export function writeMixScript(dir, name, requests) {
  const script = `
local specs = {
${requests
  .map(
    (r) =>
      `  { ${lua(r.method ?? "GET")}, ${lua(r.path)}, { ${Object.entries(r.headers ?? {})
        .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
        .join(", ")} }, ${r.body === undefined ? "nil" : lua(r.body)} },`,
  )
  .join("\n")}
}
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end
function init(args)
  reqs = {}
  for k, s in ipairs(specs) do reqs[k] = wrk.format(s[1], s[2], s[3], s[4]) end
  n = #reqs
  i = 0
  statuses = {}
end
function request()
  i = i % n + 1
  return reqs[i]
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local e = summary.errors
  local parts = {}
  local all = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do all[k] = (all[k] or 0) + v end
  end
  for k, v in pairs(all) do table.insert(parts, string.format('"%d":%d', k, v)) end
  io.write(string.format('{"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"statuses":{%s}}\\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout, table.concat(parts, ",")))
end
`;
  const file = join(dir, `${name}.lua`);
  writeFileSync(file, script);
  return file;
}

/** Runs wrk against `url` for `seconds`; resolves { rps, p50_ms, p99_ms, errors, requests }. */
export function runWrk(url, script, { seconds, connections = 50, unpinned = false }) {
  const wrkArgs = [
    "-t1",
    `-c${connections}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    "--timeout",
    "5s",
    "-s",
    script,
    url,
  ];
  const [command, args] = unpinned ? ["wrk", wrkArgs] : onCore(LOAD_CORE, "wrk", wrkArgs);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (${code}): ${err}${out}`));
      const s = JSON.parse(line);
      const errors = s.connect + s.read + s.write + s.status + s.timeout;
      resolve({
        requests: s.requests,
        rps: s.requests / (s.duration_us / 1e6),
        p50_ms: s.p50_us / 1000,
        p99_ms: s.p99_us / 1000,
        errors,
        statusErrors: s.status,
        connectionErrors: s.connect + s.read + s.write + s.timeout,
        statuses: s.statuses,
      });
    });
  });
}
