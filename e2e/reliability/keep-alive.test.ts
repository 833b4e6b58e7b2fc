// 10,000 requests over keep-alive connections leave no growth in open file descriptors.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { report, SOAK } from "./support/figures.js";
import { keepAliveAgent, pool, type SendOptions, send } from "./support/http.js";
import { useShopOnSqlite } from "./support/shop.js";

const REQUESTS = SOAK ? 200_000 : 10_000;
const CONNECTIONS = 10;

describe(`${REQUESTS} keep-alive requests`, () => {
  const shop = useShopOnSqlite();

  /** Once clients have gone, the server's descriptors settle; wait (bounded) for that. */
  async function settledFds(atMost: number): Promise<number> {
    let fds = shop.server.fdCount();
    for (let i = 0; i < 100 && fds > atMost; i++) {
      await sleep(100);
      fds = shop.server.fdCount();
    }
    return fds;
  }

  it(
    "leave no growth in open file descriptors",
    async () => {
      const created = await send(shop.server.url, "/widgets", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ title: "kept" }),
      });
      const id = (JSON.parse(created.body) as { id: string }).id;
      // A browser keeps its session cookie; without one every HTML page would seal a new session.
      const home = await send(shop.server.url, "/");
      const cookie = String(home.headers["set-cookie"]?.[0]).split(";")[0]!;
      const mix: [string, SendOptions][] = [
        ["/widgets.json", {}],
        [`/widgets/${id}`, { headers: { accept: "application/json" } }],
        [`/widgets/${id}`, {}],
        ["/", {}],
        ["/assets/application.css", {}],
        ["/no/such/page", {}],
        [
          "/widgets",
          {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify({ title: "kept too" }),
          },
        ],
      ];
      const run = async (count: number) => {
        const agent = keepAliveAgent(CONNECTIONS);
        const statuses: Record<number, number> = {};
        let peak = 0;
        await pool(count, CONNECTIONS, async (i) => {
          const [path, options] = mix[i % mix.length]!;
          // Pages carry the browser's cookie; the JSON create is an API client's, without one
          // (with the session cookie csrf() would ask for the token header).
          const headers =
            options.method === "POST" ? options.headers : { ...options.headers, cookie };
          const reply = await send(shop.server.url, path, { ...options, headers, agent });
          statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
          if (i % 500 === 0) peak = Math.max(peak, shop.server.fdCount());
        });
        agent.destroy();
        return { statuses, peak };
      };

      const before = shop.server.fdCount();
      await run(500); // warm-up: lazy modules, the database connection, statement cache
      const baseline = await settledFds(before);
      const rssBefore = shop.server.rssKb();
      const { statuses, peak } = await run(REQUESTS);
      const after = await settledFds(baseline);
      const rssAfter = shop.server.rssKb();

      expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
      expect(statuses[404]).toBe(Math.ceil((REQUESTS - 5) / mix.length));
      expect(statuses[201]).toBe(Math.ceil((REQUESTS - 6) / mix.length));
      expect(after).toBeLessThanOrEqual(baseline);
      report(`keep-alive requests`, {
        requests: REQUESTS,
        connections: CONNECTIONS,
        statuses,
        fds: { at_start: before, baseline, peak, after },
        rss_kb: { before: rssBefore, after: rssAfter },
      });
    },
    SOAK ? 1_800_000 : 300_000,
  );
});
