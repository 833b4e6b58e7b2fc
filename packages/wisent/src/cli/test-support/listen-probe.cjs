// Preloaded (`node --require`) by tests that ask what a server had loaded when it began to
// listen: prints one line naming which of Node's lazily loaded parts were in by then.
"use strict";
const http = require("node:http");
const listen = http.Server.prototype.listen;
const PARTS = { undici: "internal/deps/undici/undici", http2: "NativeModule http2" };
http.Server.prototype.listen = function probedListen(...args) {
  this.once("listening", () => {
    const loaded = Object.entries(PARTS).map(
      ([name, id]) => `${name}=${process.moduleLoadList.some((m) => m.includes(id))}`,
    );
    process.stderr.write(`[listen-probe] loaded at listen: ${loaded.join(" ")}\n`);
  });
  return listen.apply(this, args);
};
