// 500 image uploads to the example shop, each cut off by the client at a random point (inside a
// part's headers, inside a file's bytes, between parts; the socket closed or reset), half of
// them without a session (refused by CSRF, which reads the form first), half with the form's
// token: afterwards the server has no more open descriptors than before and no temporary upload
// file. Once with `wisent start`, once with `wisent start --workers 2` (each worker counted).
// Seeded (UPLOAD_ABORT_SEED=<n>); 127.0.0.1 only.
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_SHOP, freePort, type ServerProcess, startWisent } from "../support/server.js";
import { sqliteDatabase, type TestDatabase } from "./support/databases.js";
import { report } from "./support/figures.js";
import { pool, send } from "./support/http.js";
import { Prng } from "./support/prng.js";

const SEED = Number(process.env.UPLOAD_ABORT_SEED ?? 20_261_128);
const ABORTS = 500;
const BOUNDARY = "----wisent-abort";
/** The smallest valid PNG, then filler: a file part of 64 KiB. */
const PNG = Buffer.concat([
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64",
  ),
  Buffer.alloc(64 * 1024, 0x61),
]);

/** Open descriptors of process `pid`. */
function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The temporary upload files of process `pid` (the shop's tmp/uploads/<pid>/). */
function uploadFiles(pid: number): string[] {
  try {
    return readdirSync(join(EXAMPLE_SHOP, "tmp", "uploads", String(pid)));
  } catch {
    return [];
  }
}

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) {
        children.push(Number(name));
      }
    } catch {
      // ended meanwhile
    }
  }
  return children;
}

/** What a session's form needs: the cookie and the token the page's form carries. */
interface Session {
  cookie: string;
  token: string;
}

/** The multipart body of an image: token (when given), caption, file, closing boundary. */
function imageBody(token: string | undefined): { body: Buffer; cuts: Record<string, number[]> } {
  const part = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const before = `${token ? part("authenticity_token", token) : ""}${part("caption", "Cut")}`;
  const fileHead =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.png"\r\n` +
    "Content-Type: image/png\r\n\r\n";
  const body = Buffer.concat([
    Buffer.from(before + fileHead),
    PNG,
    Buffer.from(`\r\n${part("note", "after the file")}--${BOUNDARY}--\r\n`),
  ]);
  const fileStart = Buffer.byteLength(before + fileHead);
  const fileEnd = fileStart + PNG.length;
  return {
    body,
    cuts: {
      // Inside the file part's headers (its Content-Disposition line, its blank line).
      "part headers": [Buffer.byteLength(before) + 20, fileStart - 2],
      // Inside the file's bytes: soon after they begin, half-way, just before they end.
      "file data": [fileStart + 10, fileStart + 32 * 1024, fileEnd - 5],
      // Between parts: after the file part's closing line, before the next part's headers.
      "between parts": [fileEnd + 2, fileEnd + 2 + BOUNDARY.length + 4],
    },
  };
}

/**
 * Sends the head and `cut` bytes of `body` to POST `path`, waits a moment (so that the server
 * has read what it got) and closes or resets the connection without reading the answer.
 */
function abortUpload(
  port: number,
  path: string,
  body: Buffer,
  cut: number,
  cookie: string | undefined,
  reset: boolean,
): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.on("close", () => resolve());
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${cookie ? `Cookie: ${cookie}\r\n` : ""}` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, cut), () => {
      setTimeout(() => (reset ? socket.resetAndDestroy() : socket.destroy()), 15);
    });
  });
}

/** Waits (bounded) until `condition` holds; resolves with whether it did. */
async function eventually(condition: () => boolean, ms = 15_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) return false;
    await sleep(50);
  }
  return true;
}

/** A session of the shop's image form: its cookie, and the token from the new-image page. */
async function formSession(url: string, widgetId: string): Promise<Session> {
  const page = await send(url, `/widgets/${widgetId}/images/new`);
  const cookie = String(page.headers["set-cookie"]?.[0]).split(";")[0]!;
  const token = /name="authenticity_token" value="([^"]+)"/.exec(page.body)?.[1];
  if (!token) throw new Error("the new-image page has no authenticity_token field");
  return { cookie, token };
}

describe.each([
  { workers: 0, title: "`wisent start`" },
  { workers: 2, title: "`wisent start --workers 2`" },
])(`${ABORTS} uploads aborted at random points, $title`, ({ workers }) => {
  let db: TestDatabase;
  let server: ServerProcess;
  /** The processes that serve: the server itself, or its workers. */
  let serving: number[];

  beforeAll(async () => {
    db = await sqliteDatabase();
    const env = {
      GO_ENV: "test",
      NODE_ENV: "test",
      DATABASE_URL: db.url,
      STORAGE_URL: `file:${join(db.url.slice("sqlite:".length), "..", "storage")}`,
      SESSION_SECRET: "reliability-session-secret-0123456789abcdef",
    };
    if (workers === 0) {
      server = await startWisent(EXAMPLE_SHOP, { env });
      serving = [server.pid];
      return;
    }
    const port = await freePort();
    server = await startWisent(EXAMPLE_SHOP, {
      env,
      args: ["--workers", String(workers), "--port", String(port)],
      ready: /done\s+2 workers \(pids (\d+), (\d+)\) on port (\d+)/,
      url: `http://127.0.0.1:${port}`,
    });
    serving = [Number(server.ready[1]), Number(server.ready[2])];
    expect(new Set(childrenOf(server.pid))).toEqual(new Set(serving));
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("leave no open descriptor and no temporary file", async () => {
    const created = await send(server.url, "/widgets", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ title: "aborted uploads" }),
    });
    const widgetId = (JSON.parse(created.body) as { id: string }).id;
    const path = `/widgets/${widgetId}/images`;
    const session = await formSession(server.url, widgetId);
    // Warm-up: whole uploads, so that what a process opens once (the image-type module, the
    // database, the storage folder) is open before the count; on every worker.
    for (let i = 0; i < 4 * Math.max(1, workers); i++) {
      const { body } = imageBody(session.token);
      const done = await send(server.url, path, {
        method: "POST",
        headers: {
          cookie: session.cookie,
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body,
      });
      expect(done.status).toBe(303);
    }
    const settle = () => serving.every((pid) => uploadFiles(pid).length === 0);
    expect(await eventually(settle)).toBe(true);
    const baseline = serving.map(fdCount);

    const rng = new Prng(SEED + workers);
    const points: Record<string, number> = {};
    let peakFiles = 0;
    await pool(ABORTS, 8, async (i) => {
      const signedIn = rng.chance(0.5);
      const { body, cuts } = imageBody(signedIn ? session.token : undefined);
      const where = rng.pick(Object.keys(cuts));
      const cut = rng.pick(cuts[where]!);
      const reset = rng.chance(0.5);
      points[where] = (points[where] ?? 0) + 1;
      await abortUpload(server.port, path, body, cut, signedIn ? session.cookie : undefined, reset);
      if (i % 10 === 0) {
        peakFiles = Math.max(peakFiles, ...serving.map((pid) => uploadFiles(pid).length));
      }
    });

    const clean = await eventually(
      () => settle() && serving.every((pid, n) => fdCount(pid) <= baseline[n]!),
    );
    const after = serving.map(fdCount);
    const files = serving.flatMap(uploadFiles);
    report(`aborted uploads (${workers ? `${workers} workers` : "one process"})`, {
      aborts: ABORTS,
      points,
      peak_temporary_files: peakFiles,
      fds: { baseline, after },
      temporary_files_after: files.length,
    });
    expect(files).toEqual([]);
    for (const [n, fds] of after.entries()) expect(fds).toBeLessThanOrEqual(baseline[n]!);
    expect(clean).toBe(true);
    // Not vacuous: the cut uploads had temporary files open while they were being received.
    expect(peakFiles).toBeGreaterThan(0);
    // The server still answers, with each of its processes (none died on the way).
    expect(new Set(workers ? childrenOf(server.pid) : [server.pid])).toEqual(new Set(serving));
    expect((await send(server.url, "/widgets.json")).status).toBe(200);
  }, 120_000);
});
