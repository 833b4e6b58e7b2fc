/**
 * The bench's client process (forked by run.mjs, so the servers' memory is their own): it holds
 * the subscribed event streams and makes the writes, and times both on its one clock. Commands
 * arrive as IPC messages `{ id, cmd, ...args }` and are answered `{ id, result }` or
 * `{ id, error }`:
 *   - open { tag, url, path, count }: opens `count` streams of `url + path` (a group named `tag`),
 *     resolves once each has answered 200 and sent its first block;
 *   - close { tag }: closes the group's streams;
 *   - writes { url, tags, count, prefix, kind, gapMs }: `count` creates one after another on
 *     `url`; for each, the time from sending it to its answer, and to the first and the last
 *     stream of each group receiving its `created` event (kind "created") or the Turbo refresh
 *     (kind "refresh");
 *   - creates { url, count, concurrency }: `count` creates, `concurrency` at a time; the wall
 *     time in ms.
 */
import http from "node:http";
import { sseReader } from "./sse-reader.mjs";

const PROXY = { "X-Forwarded-Proto": "https" };
const TIMEOUT_MS = 30_000;
const now = () => performance.now();

/** A group of streams and what it waits for: a title's `created` event, or the next refresh. */
class Group {
  conns = [];
  /** title -> { remaining, first, last, done } for the writes being waited for. */
  expected = new Map();
  /** The refresh being waited for: { seen: Set, first, last, done }. */
  refresh;
  errors = 0;

  onEvent(conn, type, data, at) {
    if (type === "created") {
      const title = /"title":"([^"]*)"/.exec(data)?.[1];
      const wait = title === undefined ? undefined : this.expected.get(title);
      if (!wait) return;
      wait.first ??= at;
      wait.last = at;
      if (--wait.remaining === 0) {
        this.expected.delete(title);
        wait.done();
      }
    } else if (this.refresh && data.includes('action="refresh"') && !this.refresh.seen.has(conn)) {
      const wait = this.refresh;
      wait.seen.add(conn);
      wait.first ??= at;
      wait.last = at;
      if (wait.seen.size === this.conns.length) {
        this.refresh = undefined;
        wait.done();
      }
    }
  }

  /** A promise of { first, last } once every stream of the group has received `title`. */
  expectCreated(title) {
    return new Promise((done) => {
      const wait = { remaining: this.conns.length, first: undefined, last: undefined };
      wait.done = () => done({ first: wait.first, last: wait.last });
      this.expected.set(title, wait);
    });
  }

  /** A promise of { first, last } once every stream of the group has received a refresh. */
  expectRefresh() {
    return new Promise((done) => {
      const wait = { seen: new Set(), first: undefined, last: undefined };
      wait.done = () => done({ first: wait.first, last: wait.last });
      this.refresh = wait;
    });
  }
}

const groups = new Map();
const groupOf = (tag) => {
  let group = groups.get(tag);
  if (!group) {
    group = new Group();
    groups.set(tag, group);
  }
  return group;
};

/** Opens one event stream; resolves once it has answered 200 and sent its opening block. */
function openStream(group, url, path) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = http.get(
      {
        host: hostname,
        port,
        path,
        agent: false,
        headers: { Accept: "text/event-stream", ...PROXY },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET ${path}: ${res.statusCode}`));
          return;
        }
        const conn = { req };
        const read = sseReader((type, data) => group.onEvent(conn, type, data, now()));
        res.setEncoding("utf8");
        let opened = false;
        res.on("data", (chunk) => {
          read(chunk);
          if (!opened) {
            opened = true;
            group.conns.push(conn);
            resolve();
          }
        });
        res.on("error", () => {
          group.errors++;
        });
      },
    );
    req.on("error", (error) => {
      group.errors++;
      reject(error);
    });
  });
}

async function open({ tag, url, path, count, parallel = 100 }) {
  const group = groupOf(tag);
  let started = 0;
  const opener = async () => {
    while (started < count) {
      started++;
      await openStream(group, url, path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, opener));
  return { open: group.conns.length };
}

function close({ tag }) {
  const group = groups.get(tag);
  if (!group) return { closed: 0 };
  for (const conn of group.conns) conn.req.destroy();
  groups.delete(tag);
  return { closed: group.conns.length, errors: group.errors };
}

const agents = new Map();
/** POSTs a widget to `url`; resolves with the status once the answer has been read. */
function create(url, title) {
  const { hostname, port } = new URL(url);
  let agent = agents.get(url);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    agents.set(url, agent);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        path: "/widgets",
        method: "POST",
        agent,
        headers: { "Content-Type": "application/json", Accept: "application/json", ...PROXY },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 201 ? resolve() : reject(new Error(`POST: ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ title }));
  });
}

function withTimeout(promise, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function writes({ url, tags, count, prefix, kind = "created", gapMs = 5 }) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const title = `${prefix}-${i}`;
    const targets = tags.map((tag) => groupOf(tag));
    const waits = targets.map((g) =>
      kind === "created" ? g.expectCreated(title) : g.expectRefresh(),
    );
    const sent = now();
    let answered;
    const posted = create(url, title).then(() => {
      answered = now();
    });
    const arrivals = await withTimeout(Promise.all([posted, ...waits]), `${kind} ${title}`);
    samples.push({
      answer: answered - sent,
      groups: Object.fromEntries(
        tags.map((tag, g) => [
          tag,
          { first: arrivals[g + 1].first - sent, last: arrivals[g + 1].last - sent },
        ]),
      ),
    });
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return samples;
}

async function creates({ url, count, concurrency = 4, prefix = "cost" }) {
  let next = 0;
  const started = now();
  const worker = async () => {
    while (next < count) await create(url, `${prefix}-${next++}`);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ms: now() - started };
}

const COMMANDS = { open, close, writes, creates };
process.on("message", async ({ id, cmd, ...args }) => {
  try {
    process.send({ id, result: await COMMANDS[cmd](args) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.on("disconnect", () => process.exit(0));
