import type { JobRow } from "./jobs-table.js";

/** A job as `wisent jobs --json` prints it: times as ISO text, the payload parsed. */
export interface JobListing {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: string;
  readonly priority: number;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: string;
  readonly createdAt: string;
  readonly failedAt: string | null;
  readonly uniqueKey: string | null;
  readonly payload: unknown;
  readonly error: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A row as {@link JobListing}. */
export function jobListing(row: JobRow): JobListing {
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    payload = row.payload;
  }
  return {
    id: row.id,
    name: row.name,
    queue: row.queue,
    state: row.state,
    priority: row.priority,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: iso(row.run_at) as string,
    createdAt: iso(row.created_at) as string,
    failedAt: iso(row.failed_at),
    uniqueKey: row.unique_key,
    payload,
    error: row.last_error,
  };
}

/**
 * The jobs as a table: ID, NAME, QUEUE, STATE, ATTEMPTS, RUN AT, ERROR (its first line).
 *
 * @example
 * formatJobTable(rows);
 * // ID                                    NAME         QUEUE    STATE   ATTEMPTS  RUN AT  ERROR
 */
export function formatJobTable(rows: readonly JobRow[]): string {
  const header = ["ID", "NAME", "QUEUE", "STATE", "ATTEMPTS", "RUN AT", "ERROR"];
  const lines = rows.map((row) => [
    row.id,
    row.name,
    row.queue,
    row.state,
    `${row.attempts}/${row.max_attempts}`,
    new Date(Number(row.run_at)).toISOString(),
    (row.last_error ?? "").split("\n")[0]!.slice(0, 80),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines]
    .map((cells) =>
      cells
        .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
