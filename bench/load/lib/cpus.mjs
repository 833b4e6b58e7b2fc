/** CPU pinning: the server on one core, the load generator on another, when the machine allows. */
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;
/** True when servers and load generator run on separate cores. */
export const pinned = hasTaskset && availableParallelism() >= 2;

/** [command, args] running `command` on `core` (unpinned when the machine does not allow it). */
export function onCore(core, command, args) {
  return pinned ? ["taskset", ["-c", String(core), command, ...args]] : [command, args];
}

export const SERVER_CORE = 0;
export const LOAD_CORE = 1;
