import { nodeOptionsSetting } from "../../config/settings.js";

/**
 * The cap on V8's young generation that `wisent start --workers` gives each worker and the
 * generated Dockerfile sets through `NODE_OPTIONS`: 8 MiB a semi-space. Left to itself V8 grows
 * the young generation with the allocation rate, to 64-128 MiB under sustained load, and keeps
 * it: a server's resident set grew from ~95 to ~250 MiB over a million requests while the heap
 * it held stayed at ~15 MiB. Capped, it levels off (bench/load/RESULTS-memory.md) at no cost in
 * CPU per request (bench/load/ab.mjs with BENCH_NODE_OPTIONS_B).
 */
export const YOUNG_GENERATION_FLAG = "--max-semi-space-size=8";

const SEMI_SPACE = /(^|\s)--max-semi-space-size(=|\s|$)/;

/**
 * Node's flags for a worker process: this process's own, plus {@link YOUNG_GENERATION_FLAG}
 * unless a semi-space size is already chosen, on the command line or in `NODE_OPTIONS` (a flag
 * given here would override the user's `NODE_OPTIONS`).
 *
 * @param execArgv - the flags this process was started with
 * @param nodeOptions - the `NODE_OPTIONS` the worker inherits
 * @returns the worker's `execArgv`
 * @example workerExecArgv([]) // ["--max-semi-space-size=8"]
 */
export function workerExecArgv(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = nodeOptionsSetting(),
): string[] {
  const chosen =
    execArgv.some((flag) => SEMI_SPACE.test(flag)) || SEMI_SPACE.test(nodeOptions ?? "");
  return chosen ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}
