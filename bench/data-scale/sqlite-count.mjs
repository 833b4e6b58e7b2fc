/**
 * What SQLite's two ways of counting a whole table cost as it grows: the capped count a list
 * runs up to the count limit (`select count(*) from (select 1 from widgets limit 10001)`, which
 * steps through 10,001 rows) against `count(*)` of the whole table (which SQLite answers from its
 * smallest index's pages without reading rows). Wisent counts a model's whole SQLite table
 * exactly while its rows are at most WHOLE_COUNT_FACTOR (20) times the cap
 * (packages/wisent/src/data/model-statements.ts); the ratio at 20x the cap is the check.
 *
 *   node bench/data-scale/sqlite-count.mjs [--sizes 10000,50000,100000,200000,400000]
 *
 * The widgets table as a generated app's migration makes it (a UUID text primary key, its
 * autoindex the smallest index), in a temporary file with the app's WAL journal; in-process,
 * interleaved rounds, CPU-time medians. `count(*)` stays cheap while the index fits in the
 * connection's page cache (better-sqlite3's default: 16 MB); past it, every count reads the
 * index's pages from the file again (about 10 ms at 400,000 rows).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import BetterSqlite3 from "better-sqlite3";
import { interleave, ns } from "../lib/measure.mjs";

const CAP = 10_001;
const { values: options } = parseArgs({
  options: { sizes: { type: "string", default: "10000,50000,100000,200000,400000" } },
});
const sizes = options.sizes.split(",").map(Number);

const dir = mkdtempSync(join(tmpdir(), "wisent-sqlite-count-"));
try {
  console.log(
    "| rows | primary key index | capped count (10,001) | count(*) | count(*) / capped |",
  );
  console.log("|---:|---:|---:|---:|---:|");
  for (const rows of sizes) {
    const db = new BetterSqlite3(join(dir, `widgets-${rows}.sqlite`));
    db.pragma("journal_mode = WAL");
    db.exec(
      'create table widgets ("id" text primary key not null, "title" text not null, "description" text, "created_at" text not null, "updated_at" text not null)',
    );
    const insert = db.prepare("insert into widgets values (?, ?, ?, ?, ?)");
    const at = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(randomUUID(), `Widget ${i}`, null, at, at);
    })();
    const capped = db.prepare(
      `select count(*) as count from (select 1 as one from widgets limit ${CAP}) as capped`,
    );
    const whole = db.prepare("select count(*) as count from widgets");
    const result = await interleave(
      {
        capped: (n) => {
          for (let i = 0; i < n; i++) capped.get();
        },
        whole: (n) => {
          for (let i = 0; i < n; i++) whole.get();
        },
      },
      { rounds: 7, iterations: 200 },
    );
    const ratio = result.whole.cpu / result.capped.cpu;
    const index = db
      .prepare("select sum(pgsize) as bytes from dbstat where name = 'sqlite_autoindex_widgets_1'")
      .get();
    const marker = rows === 20 * (CAP - 1) ? " (20x the limit)" : "";
    console.log(
      `| ${rows.toLocaleString("en-US")}${marker} | ${(index.bytes / 2 ** 20).toFixed(1)} MiB | ${ns(result.capped.cpu)} | ${ns(result.whole.cpu)} | ${ratio.toFixed(2)} |`,
    );
    db.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
