// 5,000 generated requests (seeded, reproducible: FUZZ_SEED=<n>) of every kind of hostile input
// at the app: methods with bodies, bodies at and over the limit, forged, invalid and duplicated
// Hosts, trickled headers, sockets the client closes early, malformed HTTP. Zero 5xx, zero resets
// for the requests within the limits (they must see their answer), no crash, memory bounded.
import { describe, expect, it } from "vitest";
import { logLines } from "../support/server.js";
import { report, SOAK } from "./support/figures.js";
import { generateRequest } from "./support/fuzz-requests.js";
import { pool, send, sendJson } from "./support/http.js";
import { Prng } from "./support/prng.js";
import { rawRequest } from "./support/raw-exchange.js";
import { useShopOnSqlite } from "./support/shop.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const REQUESTS = SOAK ? 50_000 : 5_000;

describe(`fuzz: ${REQUESTS} generated requests (seed ${SEED})`, () => {
  const shop = useShopOnSqlite();

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
      const resets = { within: 0, over_a_limit_or_malformed: 0 };
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
        }
        // A request within the limits always sees its answer: no reset, no silent close.
        if (typeof status !== "number" && request.within)
          withinUnanswered.push(`#${i} ${request.label} -> ${status}`);
        if (typeof status === "number" && status >= 500)
          serverErrors.push(`#${i} ${request.label} -> ${status}`);
        if (i % 250 === 0) peakRss = Math.max(peakRss, shop.server.rssKb());
      });
      const rssAfter = shop.server.rssKb();
      const alive = await send(shop.server.url, "/");
      const unhandled = logLines(shop.server).filter(
        (l) => l.msg === "unhandled error" || l.level === "error",
      );

      report(`fuzz (seed ${SEED})`, {
        requests: REQUESTS,
        statuses,
        server_errors: serverErrors.length,
        resets,
        within_limits: requests.filter((r) => r.within).length,
        within_unanswered: withinUnanswered.length,
        rss_mb: { before: mb(rssBefore), peak: mb(peakRss), after: mb(rssAfter) },
      });
      for (const line of unhandled.slice(0, 10)) {
        console.log(`server error on ${line.path}: ${line.error ?? line.msg}`);
      }
      expect(serverErrors.slice(0, 20)).toEqual([]);
      expect(withinUnanswered.slice(0, 20)).toEqual([]);
      expect(resets.within).toBe(0);
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
