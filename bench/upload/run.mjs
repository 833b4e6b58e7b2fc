/**
 * Upload memory: a 200 MB file sent as multipart/form-data (generated while it is sent, never
 * held in memory by the client) to an app (bench/upload/server.mjs, its own process) that stores
 * it through the attachment pipeline (busboy to a temporary file, file-type, SHA-256, flydrive to
 * the local disk). The server's resident memory (/proc) and V8 heap (its `GET /memory`) are
 * sampled while the body streams in, against the same process idle just before. Goal: the peak
 * stays within 2x the idle baseline (a body held in memory adds 200 MB), and about what a 20 MB
 * file's upload takes (flat: it does not grow with the file). A control upload of the same body to
 * a route that reads it whole (`arrayBuffer()`) shows what holding it looks like.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { residentMiB } from "../load/lib/servers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const FILE_SIZE = 200 * 1000 * 1000;
const SMALL_SIZE = 20 * 1000 * 1000;
/** Peak RSS at most this times idle: a 200 MB body held in memory makes it well over 2.5x. */
const GOAL = 2;

/** The smallest valid PNG: the file's first bytes, so its type is read as image/png. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** A multipart body with a `title` and a `file` of `size` bytes, made chunk by chunk. */
function multipart(size) {
  const boundary = `----wisent-bench-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench upload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n` +
      "Content-Type: image/png\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // One chunk, sent again and again: the client's memory does not grow with the file.
  const chunk = Buffer.alloc(MiB, 7);
  async function* parts() {
    yield head;
    yield PNG;
    let left = size - PNG.length;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
    yield tail;
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    body: Readable.from(parts(), { objectMode: false }),
  };
}

/** POSTs a `size`-byte file to `path`; resolves with the status and the answer's text. */
function upload(url, path, size, method = "POST") {
  const { type, length, body } = multipart(size);
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method,
      headers: { "content-type": type, "content-length": length, accept: "application/json" },
    });
    req.on("response", async (res) => {
      let text = "";
      for await (const part of res) text += part;
      resolve({ status: res.statusCode, text });
    });
    req.on("error", reject);
    body.pipe(req);
  });
}

async function heapMiB(url) {
  const memory = await (await fetch(`${url}/memory`)).json();
  return memory.heapUsed / MiB;
}

/** Samples the server's RSS (every 20 ms) and heap (every 100 ms) until `work` settles. */
async function sampled(pid, url, work) {
  const rss = [];
  const heap = [];
  let done = false;
  const rssLoop = (async () => {
    while (!done) {
      rss.push(await residentMiB(pid));
      await sleep(20);
    }
  })();
  const heapLoop = (async () => {
    while (!done) {
      heap.push(await heapMiB(url));
      await sleep(100);
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, rss, heap };
  } finally {
    done = true;
    await Promise.all([rssLoop, heapLoop]);
  }
}

const max = (values) => Math.max(...values);
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function startServer(dir) {
  // Run in `dir` as an app's folder: its files go to storage/upload-bench/test/.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "upload-bench" }));
  const child = spawn(process.execPath, [join(here, "server.mjs")], {
    cwd: dir,
    env: {
      ...process.env,
      GO_ENV: "test",
      DATABASE_URL: `sqlite:${join(dir, "bench.sqlite")}`,
      STORAGE_URL: `file:${join(dir, "storage")}`,
      TMPDIR: join(dir),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (data) => {
      out += data;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the bench server exited (${code}): ${out}`)));
  });
  return { child, url };
}

const dir = mkdtempSync(join(tmpdir(), "wisent-upload-bench-"));
const { child, url } = await startServer(dir);
try {
  // Warm-up: every module an upload loads, every pool it fills.
  for (let i = 0; i < 3; i++) {
    const warm = await upload(url, "/documents", 4 * MiB);
    if (warm.status !== 201) throw new Error(`warm-up upload: ${warm.status} ${warm.text}`);
  }
  const idle = await sampled(child.pid, url, () => sleep(2000));
  const baseline = { rss: median(idle.rss), heap: median(idle.heap) };

  const small = await sampled(child.pid, url, () => upload(url, "/documents", SMALL_SIZE));
  if (small.result.status !== 201) throw new Error(`upload: ${small.result.status}`);
  const streamed = await sampled(child.pid, url, () => upload(url, "/documents", FILE_SIZE));
  if (streamed.result.status !== 201) {
    throw new Error(`upload: ${streamed.result.status} ${streamed.result.text}`);
  }
  const file = JSON.parse(streamed.result.text).file;
  const storedSize = statSync(
    join(dir, "storage", "upload-bench", "test", file.url.split("/")[2]),
  ).size;
  if (file.size !== FILE_SIZE || storedSize !== FILE_SIZE) {
    throw new Error(`stored ${storedSize} bytes (answered ${file.size}), sent ${FILE_SIZE}`);
  }
  const leftovers = readdirSync(dir).filter(
    (name) => !/^(bench\.sqlite.*|storage|package\.json)$/.test(name),
  );

  const control = await sampled(child.pid, url, () => upload(url, "/buffered", FILE_SIZE, "PUT"));
  if (control.result.status !== 200) throw new Error(`control: ${control.result.status}`);

  const ratio = max(streamed.rss) / baseline.rss;
  const row = (name, run, size = FILE_SIZE) =>
    `| ${name}, ${size / 1e6} MB | ${baseline.rss.toFixed(1)} MiB | ${max(run.rss).toFixed(1)} MiB | ${(max(run.rss) / baseline.rss).toFixed(2)}x | ${baseline.heap.toFixed(1)} MiB | ${max(run.heap).toFixed(1)} MiB | ${(size / 1e6 / run.seconds).toFixed(0)} MB/s |`;
  console.log(
    `Node ${process.version}, RSS sampled every 20 ms (${streamed.rss.length} samples in the 200 MB upload), heap every 100 ms.\n`,
  );
  console.log(
    [
      "| upload to | idle RSS | peak RSS | peak / idle | idle heap | peak heap | rate |",
      "|---|---:|---:|---:|---:|---:|---:|",
      row("attachment (POST /documents)", small, SMALL_SIZE),
      row("attachment (POST /documents)", streamed),
      row("control: body read whole (arrayBuffer)", control),
      "",
      `stored ${storedSize.toLocaleString("en-US")} bytes; temporary files left: ${leftovers.length}`,
      `peak RSS while uploading ${ratio.toFixed(2)}x idle (goal: at most ${GOAL}x): ${ratio <= GOAL && leftovers.length === 0 ? "met" : "NOT met"}`,
    ].join("\n"),
  );
  if (ratio > GOAL || leftovers.length > 0) process.exitCode = 1;
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
