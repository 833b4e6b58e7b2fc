// A worker in a process of its own for the many-process test: each "record" job waits a few
// milliseconds, then writes a row naming its number into `performed` (no unique key: a job run
// twice shows as two rows). Arguments: the database URL, the lease in ms, the concurrency.
import { sql } from "kysely";
import { z } from "zod";
import { openDatabase } from "../../data/database.js";
import { silentLogger } from "../../http/logger.js";
import { defineJob } from "../define-job.js";
import { JobWorker } from "../job-worker.js";

const [url, lease, concurrency] = process.argv.slice(2);
const db = await openDatabase(url, { poolSize: 4 });
const Record = defineJob({
  name: "record",
  payload: z.object({ n: z.number() }),
  async perform({ n }) {
    await new Promise((r) => setTimeout(r, 3));
    await sql`insert into performed (n, pid) values (${n}, ${process.pid})`.execute(db.kysely);
  },
});
const worker = new JobWorker({
  db: db.kysely,
  jobs: new Map([[Record.name, Record]]),
  leaseMs: Number(lease),
  concurrency: Number(concurrency),
  pollIntervalMs: 50,
  logger: silentLogger,
});
worker.start();
process.stdout.write("ready\n");
process.on("SIGTERM", async () => {
  await worker.stop(5000);
  await db.close();
  process.exit(0);
});
