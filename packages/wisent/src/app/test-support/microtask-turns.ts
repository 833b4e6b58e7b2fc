/**
 * Runs `work` and counts the microtask turns until its promise has settled and the caller's
 * `await` resumed: a ticker re-queues itself each turn, so it counts the queue's hops.
 */
export async function microtaskTurns<T>(
  work: () => T,
): Promise<{ turns: number; value: Awaited<T> }> {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    turns++;
    queueMicrotask(tick);
  };
  queueMicrotask(tick);
  try {
    const value = await work();
    return { turns, value };
  } finally {
    stopped = true;
  }
}
