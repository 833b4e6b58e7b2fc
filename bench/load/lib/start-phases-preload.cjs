// Preloaded (node --require) into a server by bench/load/cold-start-phases.mjs: notes the main
// thread's CPU time at each step of its start (process start, `dist/server.js` loading, listen(),
// first request, its answer) and writes them as JSON to START_PHASES_FILE once the first
// answer is sent. CommonJS, so that it loads before and apart from the ES module loader.
const fs = require("node:fs");
const http = require("node:http");
const { registerHooks } = require("node:module");

const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const marks = [["boot", cpu()]];
const mark = (name) => marks.push([name, cpu()]);

registerHooks({
  load(url, context, next) {
    if (url.endsWith("/dist/server.js")) mark("cli");
    return next(url, context);
  },
});

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  mark("load");
  this.prependOnceListener("request", (_req, res) => {
    mark("wait");
    res.once("finish", () => {
      mark("first request");
      const file = process.env.START_PHASES_FILE;
      fs.writeFileSync(`${file}.part`, JSON.stringify(marks));
      fs.renameSync(`${file}.part`, file);
    });
  });
  return listen.apply(this, args);
};
