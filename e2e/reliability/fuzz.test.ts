// 5,000 generated requests (seeded, reproducible: FUZZ_SEED=<n>) of every kind of hostile input
// at the shop in development: methods with bodies, bodies at and over the limit, forged, invalid
// and duplicated Hosts, trickled headers, sockets the client closes early, malformed HTTP. Sent
// with Node's default agent, which keeps connections alive and reuses them: an answer that left
// a body half read on a kept connection shows as a reset of the next request. Zero 5xx, zero
// resets for the requests node:http sends, no crash, memory bounded.
import { globalAgent } from "node:http";
import { describe, expect, it } from "vitest";
import { report, SOAK } from "./support/figures.js";
import { generateRequest } from "./support/fuzz-requests.js";
import { pool, send, sendJson } from "./support/http.js";
import { Prng } from "./support/prng.js";
import { rawRequest } from "./support/raw-exchange.js";
import { useShopOnSqlite } from "./support/shop.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const REQUESTS = SOAK ? 50_000 : 5_000;

/** Node's default agent: keep-alive, connections reused (Node 19 and later). */
const agent = globalAgent;

describe(`fuzz: ${REQUESTS} generated requests (seed ${SEED}) at the shop in development`, () => {
  const shop = useShopOnSqlite({ env: { GO_ENV: "development", NODE_ENV: "development" } });

  /** The development log's errors (`error: unhandled error ...`, a 5xx request line). */
  const loggedErrors = () =>
    shop.server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("error:") || / 5\d\d [A-Z]/.test(line));

  it("keeps the connection usable after a 400 to a large body it did not read", async () => {
    expect((agent as unknown as { keepAlive: boolean }).keepAlive).toBe(true);
    const body = Buffer.from(JSON.stringify({ title: "x".repeat(200 * 1024) }));
    const refused: [string, string, string][] = [
      [
        "DELETE",
        "/widgets/'%20OR%201=1%20--.json?page=99999999999999999999",
        "multipart/form-data",
      ],
      ["PUT", "/widgets/..%2f..%2fetc%2fpasswd", "multipart/form-data"],
      ["PUT", "/widgets/..%2f..%2fetc%2fpasswd", "application/json"],
    ];
    for (const [method, path, type] of refused) {
      for (let i = 0; i < 5; i++) {
        const answer = await send(shop.server.url, path, {
          method,
          headers: { "content-type": type },
          body,
          agent,
        });
        expect(answer.status, `${method} ${path} (${type})`).toBeLessThan(500);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        // The next request goes out on the connection the answer left open.
        const next = await send(shop.server.url, "/widgets.json", { agent });
        expect(next.status, `the request after ${method} ${path} (${type})`).toBe(200);
      }
    }
  }, 60_000);

  it("refuses a Host the URL standard refuses (invalid Punycode) with 400, before routing", async () => {
    for (const host of ["xn--zz", "a.xn--"]) {
      for (const path of ["/widgets", "/widgets.json"]) {
        const answer = await send(shop.server.url, path, { headers: { host }, agent });
        expect(answer.status, `Host ${host} on ${path}`).toBe(400);
        expect(answer.body).toContain("Host header");
      }
    }
  });

  it(
    "gets no 5xx, never crashes the server and keeps its memory bounded",
    async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await sendJson(shop.server.url, "POST", "/widgets", { title: `seed ${i}` });
        ids.push((JSON.parse(r.body) as { id: string }).id);
      }
      const rng = new Prng(SEED);
      const requests = Array.from({ length: REQUESTS }, () => generateRequest(rng, ids));
      const rssBefore = shop.server.rssKb();
      const statuses: Record<string, number> = {};
      const serverErrors: string[] = [];
      const withinUnanswered: string[] = [];
      const resets = { within: 0, over_a_limit_or_malformed: 0, sent_by_node_http: 0 };
      let peakRss = rssBefore;
      await pool(requests.length, 8, async (i) => {
        const request = requests[i]!;
        let status: number | string;
        if (request.kind === "raw") {
          const seen = await rawRequest(shop.server.port, request.bytes, request.sending);
          status =
            seen.status ||
            (seen.closedByClient ? "client closed" : seen.reset ? "ECONNRESET" : "closed");
        } else {
          try {
            status = (
              await send(shop.server.url, request.path, {
                method: request.method,
                headers: request.headers,
                agent,
                ...(request.body ? { body: request.body } : {}),
              })
            ).status;
          } catch (error) {
            status = (error as NodeJS.ErrnoException).code ?? "error";
          }
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === "ECONNRESET" || status === "EPIPE") {
          if (request.within) resets.within++;
          else resets.over_a_limit_or_malformed++;
          if (request.kind === "http") resets.sent_by_node_http++;
        }
        // A request within the limits always sees its answer: no reset, no silent close.
        if (typeof status !== "number" && request.within)
          withinUnanswered.push(`#${i} ${request.label} -> ${status}`);
        if (typeof status === "number" && status >= 500)
          serverErrors.push(`#${i} ${request.label} -> ${status}`);
        if (i % 250 === 0) peakRss = Math.max(peakRss, shop.server.rssKb());
      });
      const rssAfter = shop.server.rssKb();
      const alive = await send(shop.server.url, "/", { agent });
      const unhandled = loggedErrors();

      report(`fuzz (seed ${SEED})`, {
        requests: REQUESTS,
        statuses,
        server_errors: serverErrors.length,
        resets,
        within_limits: requests.filter((r) => r.within).length,
        within_unanswered: withinUnanswered.length,
        rss_mb: { before: mb(rssBefore), peak: mb(peakRss), after: mb(rssAfter) },
      });
      for (const line of unhandled.slice(0, 10)) console.log(`server error: ${line}`);
      expect(serverErrors.slice(0, 20)).toEqual([]);
      expect(withinUnanswered.slice(0, 20)).toEqual([]);
      expect(resets.within).toBe(0);
      // Over a limit too: a 413 says Connection: close and lingers, so node:http reads it.
      expect(resets.sent_by_node_http).toBe(0);
      expect(unhandled.slice(0, 5)).toEqual([]);
      expect(shop.server.child.exitCode).toBeNull();
      expect(alive.status).toBe(200);
      // Bounded: the bodies are capped at 1 MiB and nothing is kept per request.
      expect(rssAfter).toBeLessThan(rssBefore + 256 * 1024);
    },
    SOAK ? 1_800_000 : 300_000,
  );
});

const mb = (kb: number) => Math.round(kb / 1024);
