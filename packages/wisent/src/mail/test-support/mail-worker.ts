// A worker of the mail job in a process of its own (GO_ENV and SMTP_URL from its environment),
// for the delivery tests. Arguments: the database URL, the lease in ms.
import { openDatabase } from "../../data/database.js";
import { jsonLogger } from "../../http/logger.js";
import { JobWorker } from "../../jobs/job-worker.js";
import { DeliverMail } from "../deliver-mail.js";

const [url, lease] = process.argv.slice(2);
const db = await openDatabase(url);
const worker = new JobWorker({
  db: db.kysely,
  jobs: new Map([[DeliverMail.name, DeliverMail]]),
  leaseMs: Number(lease),
  pollIntervalMs: 50,
  logger: jsonLogger(),
});
worker.start();
process.stdout.write("ready\n");
