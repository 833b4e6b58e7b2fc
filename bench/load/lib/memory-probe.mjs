/**
 * Preloaded into a server under the memory bench (`node --import <this file> ...`; a cluster
 * worker inherits it through execArgv). It adds no route and no work to any request: until the
 * process receives SIGUSR2 it does nothing. On SIGUSR2 it appends one JSON line to
 * `$MEMORY_PROBE_DIR/<pid>.jsonl`: `process.memoryUsage()` as it is (heap used with whatever
 * garbage the next collection would free), then, unless MEMORY_PROBE_GC=0, the heap used after a
 * full collection (`retained`: what the process holds) and V8's heap size then. When `$MEMORY_PROBE_DIR/snapshot` exists,
 * it also writes a heap snapshot (`<pid>-<n>.heapsnapshot`) after that collection.
 */
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

const dir = process.env.MEMORY_PROBE_DIR;
if (dir) {
  // --expose-gc set at run time reaches only contexts made afterwards: take `gc` from a new one.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  let n = 0;
  process.on("SIGUSR2", () => {
    n++;
    const now = process.memoryUsage();
    const sample = { n, pid: process.pid, rss: now.rss, heapUsed: now.heapUsed };
    sample.heapTotal = now.heapTotal;
    sample.external = now.external;
    // Which of V8's spaces holds the heap's size: sizes and used bytes, before the collection.
    sample.spaces = Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [space.space_name, [space.space_size, space.space_used_size]]),
    );
    if (process.env.MEMORY_PROBE_GC !== "0") {
      gc();
      const after = process.memoryUsage();
      sample.retained = after.heapUsed;
      sample.heapTotalAfterGc = after.heapTotal;
    }
    try {
      if (existsSync(join(dir, "snapshot"))) {
        sample.snapshot = v8.writeHeapSnapshot(join(dir, `${process.pid}-${n}.heapsnapshot`));
      }
    } catch (error) {
      sample.snapshotError = String(error);
    }
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(sample)}\n`);
  });
}
