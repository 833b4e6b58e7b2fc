import { currentEnv } from "../config/settings.js";

/**
 * Workers in this process, woken when a job is enqueued here (`wisent dev`, `wisent start
 * --jobs`, `performEnqueued`'s tests): they take it at once instead of at their next poll.
 * Jobs enqueued in another process wait for the poll.
 */
const listeners = new Set<() => void>();

/** Calls `wake` whenever a job is enqueued in this process; returns how to stop. */
export function onLocalEnqueue(wake: () => void): () => void {
  listeners.add(wake);
  return () => listeners.delete(wake);
}

/** Whether any worker of this process is listening (else enqueueing registers no hook). */
export function localWorkersListening(): boolean {
  return listeners.size > 0;
}

/** Wakes this process's workers. */
export function wakeLocalWorkers(): void {
  for (const wake of listeners) wake();
}

/**
 * The ids of the jobs this process enqueued, kept in the test environment only: the test helpers
 * (`assertEnqueued`, `performEnqueued`) look at these, never at the jobs of test files running
 * in parallel on the same test database.
 */
const enqueuedHere = new Set<string>();
let tracking: boolean | undefined;

/** Notes a job this process enqueued (in the test environment). */
export function noteEnqueued(id: string): void {
  tracking ??= currentEnv() === "test";
  if (tracking) enqueuedHere.add(id);
}

/** The jobs this process enqueued (while tracking), oldest first. */
export function jobsEnqueuedHere(): readonly string[] {
  return [...enqueuedHere];
}

/** Forgets ids (performed or discarded jobs); all of them with none given. */
export function forgetEnqueued(ids?: Iterable<string>): void {
  if (!ids) enqueuedHere.clear();
  else for (const id of ids) enqueuedHere.delete(id);
}
