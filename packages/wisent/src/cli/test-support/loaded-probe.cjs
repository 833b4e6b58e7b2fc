// Preloaded (`node --require`) by tests that ask what a process had loaded by its end: prints one
// line naming which of Node's lazily loaded parts it loaded.
"use strict";
const PARTS = { undici: "internal/deps/undici/undici", http2: "NativeModule http2" };
process.on("exit", () => {
  const loaded = Object.entries(PARTS).map(
    ([name, id]) => `${name}=${process.moduleLoadList.some((m) => m.includes(id))}`,
  );
  process.stderr.write(`[loaded-probe] ${loaded.join(" ")}\n`);
});
