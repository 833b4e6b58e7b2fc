/**
 * Counts the arrows between the rooms of packages/wisent/src (a room is a folder under src/, a
 * floor a layer of layers.cjs; an arrow is one room's code importing another room, however many
 * files do; tests, `*.test.ts`, sit above every floor and are not counted) and lists those that
 * run back up, from a lower floor to a higher one. The import rules forbid them in the
 * framework's own code; test support (`test-support/`, `fixtures/`) may import any layer, so
 * what is left is its.
 *
 *   node scripts/architecture/arrows.mjs          the counts and the arrows that run up
 *   node scripts/architecture/arrows.mjs --json   the same as JSON
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const { LAYERS } = createRequire(import.meta.url)("./layers.cjs");
const SRC = "packages/wisent/src/";
const TEST = /\.test\.tsx?$/;
const TEST_SUPPORT = /\/(test-support|fixtures)\//;

/** The room of a file under src/: its first folder (src/index.ts is the barrel's). */
export function roomOf(path) {
  const rest = path.slice(SRC.length);
  return rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : "entries";
}

/** The floor (layer index, lowest 0) of a room. */
export function floorOf(room) {
  return LAYERS.findIndex(([, folders]) => folders.includes(room));
}

/** Every import between two rooms: [from file, to file], from dependency-cruiser's JSON. */
function crossRoomImports() {
  const run = spawnSync(
    "node_modules/.bin/depcruise",
    [SRC, "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
  );
  if (run.status !== 0 && !run.stdout) throw new Error(run.stderr);
  const { modules } = JSON.parse(run.stdout);
  return modules
    .filter((m) => m.source.startsWith(SRC) && !TEST.test(m.source))
    .flatMap((m) =>
      m.dependencies
        .filter((d) => d.resolved.startsWith(SRC) && roomOf(d.resolved) !== roomOf(m.source))
        .map((d) => [m.source, d.resolved]),
    );
}

/** The arrows, each with the files that make it and whether it runs up and only in test code. */
export function arrows() {
  const byPair = new Map();
  for (const [from, to] of crossRoomImports()) {
    const key = `${roomOf(from)} -> ${roomOf(to)}`;
    const arrow = byPair.get(key) ?? {
      from: roomOf(from),
      to: roomOf(to),
      up: floorOf(roomOf(from)) < floorOf(roomOf(to)),
      imports: [],
    };
    arrow.imports.push(`${from.slice(SRC.length)} -> ${to.slice(SRC.length)}`);
    byPair.set(key, arrow);
  }
  return [...byPair.values()].map((a) => ({
    ...a,
    testSupportOnly: a.imports.every((i) => TEST_SUPPORT.test(i.split(" -> ")[0])),
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const all = arrows();
  const up = all.filter((a) => a.up);
  const rooms = new Set(all.flatMap((a) => [a.from, a.to]));
  const summary = {
    rooms: rooms.size,
    floors: LAYERS.length,
    arrows: all.length,
    up: up.length,
    upOutsideTestSupport: up.filter((a) => !a.testSupportOnly).length,
    upArrows: up.map((a) => ({ arrow: `${a.from} -> ${a.to}`, imports: a.imports })),
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(
      `${summary.rooms} rooms on ${summary.floors} floors, ${summary.arrows} arrows, ${summary.up} running back up (${summary.upOutsideTestSupport} outside test support)`,
    );
    for (const a of summary.upArrows) console.log(`  ${a.arrow}: ${a.imports.join(", ")}`);
  }
}
