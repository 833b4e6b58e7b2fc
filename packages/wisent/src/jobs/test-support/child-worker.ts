// A worker in a process of its own, for the at-least-once test: it takes jobs named "hang",
// says "started <id>" on stdout and never finishes them (the test kills it with SIGKILL).
// Arguments: the database URL, the lease in ms.
import { z } from "zod";
import { openDatabase } from "../../data/database.js";
import { silentLogger } from "../../http/logger.js";
import { defineJob } from "../define-job.js";
import { JobWorker } from "../job-worker.js";

const [url, lease] = process.argv.slice(2);
const db = await openDatabase(url);
const Hang = defineJob({
  name: "hang",
  payload: z.object({ n: z.number() }),
  perform: (_payload, run) =>
    new Promise(() => {
      process.stdout.write(`started ${run.id}\n`);
    }),
});
const worker = new JobWorker({
  db: db.kysely,
  jobs: new Map([[Hang.name, Hang]]),
  leaseMs: Number(lease),
  pollIntervalMs: 50,
  logger: silentLogger,
});
worker.start();
process.stdout.write("ready\n");
