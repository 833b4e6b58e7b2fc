/**
 * Compares two V8 heap snapshots (`.heapsnapshot`, as `v8.writeHeapSnapshot` or
 * `node --heapsnapshot-signal` write them): the live objects grouped by kind and constructor
 * name, and the groups that grew most in bytes from the first to the second, as a Markdown table.
 * Also runs on its own: `node bench/load/lib/heap-diff.mjs before.heapsnapshot after.heapsnapshot`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Map of "kind name" to { count, bytes } over every node of the snapshot. */
export function heapGroups(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, "utf8"));
  const fields = snapshot.meta.node_fields;
  const kinds = snapshot.meta.node_types[0];
  const width = fields.length;
  const [type, name, size] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const groups = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const kind = kinds[nodes[i + type]];
    // Strings and code are grouped by kind only (their "names" are their contents).
    const label = ["object", "closure", "native", "hidden", "object shape"].includes(kind)
      ? `${kind} ${strings[nodes[i + name]].slice(0, 60)}`
      : kind;
    const group = groups.get(label) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += nodes[i + size];
    groups.set(label, group);
  }
  return groups;
}

/** The `top` groups that grew most in bytes from `before` to `after`, as a Markdown table. */
export function heapDiff(before, after, top = 15) {
  const [a, b] = [heapGroups(before), heapGroups(after)];
  const total = (groups) => [...groups.values()].reduce((sum, g) => sum + g.bytes, 0);
  const rows = [...b]
    .map(([label, g]) => {
      const old = a.get(label) ?? { count: 0, bytes: 0 };
      return { label, count: g.count - old.count, bytes: g.bytes - old.bytes };
    })
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, top);
  const kib = (n) => `${n >= 0 ? "+" : ""}${(n / 1024).toFixed(1)} KiB`;
  return [
    `heap snapshots compared (end of warm-up -> end): ${(total(a) / 1048576).toFixed(1)} -> ${(total(b) / 1048576).toFixed(1)} MiB of live objects; the groups that grew most:`,
    "",
    "| kind and constructor | objects | bytes |",
    "|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.label.replaceAll("|", "\\|")} | ${r.count >= 0 ? "+" : ""}${r.count} | ${kib(r.bytes)} |`,
    ),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [before, after] = process.argv.slice(2);
  if (!after) {
    console.error(
      "usage: node bench/load/lib/heap-diff.mjs before.heapsnapshot after.heapsnapshot",
    );
    process.exit(2);
  }
  console.log(heapDiff(before, after));
}
