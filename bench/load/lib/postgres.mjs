/**
 * Throwaway PostgreSQL databases for the load benches, on the server at
 * WISENT_BENCH_POSTGRES_URL (default the local `test` database's server).
 */
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "kysely";
import { openDatabase } from "wisent/db";

/** The admin URL the databases are made from. */
export const BENCH_POSTGRES_URL =
  process.env.WISENT_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * New empty databases, one per key, named `<prefix>_<pid>_<time>_<key>`; rejects when the
 * server cannot be reached.
 * @returns `urls` by key, and `drop()`, which removes them all and closes the admin connection
 */
export async function createDatabases(prefix, keys) {
  const admin = await openDatabase(BENCH_POSTGRES_URL, { poolSize: 1 });
  const made = [];
  const urls = {};
  try {
    for (const key of keys) {
      const name = `${prefix}_${process.pid}_${Date.now()}_${String(key).replaceAll("-", "_")}`;
      await sql`create database ${sql.id(name)}`.execute(admin.kysely);
      made.push(name);
      const url = new URL(BENCH_POSTGRES_URL);
      url.pathname = `/${name}`;
      urls[key] = url.href;
    }
  } catch (error) {
    await drop();
    throw error;
  }
  async function drop() {
    for (const name of made)
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.kysely);
    await admin.close();
  }
  return { urls, drop };
}

/**
 * CPU time (user + system, seconds) used so far by every process named `postgres` on this
 * machine (Linux /proc): the local server's backends and its background processes. Backends
 * that exit between two readings take their time with them; the benches' pooled connections
 * live as long as the servers.
 */
export function databaseCpuSeconds() {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone since the listing
    }
    const open = stat.indexOf("(");
    const close = stat.lastIndexOf(")");
    if (stat.slice(open + 1, close) !== "postgres") continue;
    const fields = stat.slice(close + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}
