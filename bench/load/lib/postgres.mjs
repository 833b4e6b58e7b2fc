/**
 * Throwaway PostgreSQL databases for the load benches, on the server at
 * WISENT_BENCH_POSTGRES_URL (default the local `test` database's server).
 */
import { readdirSync } from "node:fs";
import { sql } from "kysely";
import { openDatabase } from "wisent/db";
import { processCpu } from "./servers.mjs";

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
 * CPU ticks (user + system, 10 ms each) used so far by each process named `postgres` on this
 * machine (Linux /proc), by pid: the local server's backends and background processes.
 */
export function databaseCpuTicks() {
  const ticks = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cpu;
    try {
      cpu = processCpu(entry);
    } catch {
      continue; // gone since the listing
    }
    if (cpu.name === "postgres") ticks.set(entry, cpu.ticks);
  }
  return ticks;
}

/**
 * CPU seconds PostgreSQL's processes have used since `before` (a {@link databaseCpuTicks}): each
 * process's growth, a process started since counted whole. A backend that ended in between takes
 * its time since `before` with it (pools close idle connections): an undercount, never a
 * negative figure.
 */
export function databaseCpuSecondsSince(before) {
  let ticks = 0;
  for (const [pid, now] of databaseCpuTicks()) ticks += now - (before.get(pid) ?? 0);
  return ticks / 100;
}
