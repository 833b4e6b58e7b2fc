/**
 * `wisent start` opens its port only when it can answer: no listening probe before the build
 * (a container platform's TCP readiness probe would see the port open, then refused while the
 * app builds). Checked two ways on a start that has to build first: every `listen` the process
 * makes, recorded by a preloaded hook (one, by the app's HTTP server), and a TCP probe that
 * connects as often as it can and must get an HTTP answer on the first connection it makes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/bin/wisent.js");

let root: string;
let app: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-start-port-"));
  const { io, stderr } = memoryIO({ cwd: root });
  expect(await runCli(["new", "probed", "--dev", "--skip-install", "--skip-git"], io)).toBe(0);
  expect(stderr()).toBe("");
  app = join(root, "probed");
  symlinkSync(join(REPO, "node_modules"), join(app, "node_modules"), "dir");
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A port nothing listens on (taken and let go). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Connects to `port` again and again until a connection is made; then asks it for `/up` on
 * that connection and resolves with what came back (empty when the port closed without an answer).
 */
function probeUntilOpen(port: number, stop: { done: boolean }): Promise<string> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (stop.done) return reject(new Error("wisent start exited before its port opened"));
      const socket = net.connect(port, "127.0.0.1");
      socket.once("error", () => setImmediate(attempt));
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        let answer = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => (answer += chunk));
        socket.on("error", () => resolve(answer));
        socket.on("close", () => resolve(answer));
        socket.write("GET /up HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      });
    };
    attempt();
  });
}

describe("wisent start's port", { timeout: 180_000 }, () => {
  it("is opened once, by the server, and answers HTTP on the first connection a probe makes", async () => {
    const port = await freePort();
    const listens = join(root, "listens.log");
    const hook = join(root, "record-listen.cjs");
    writeFileSync(
      hook,
      `const net = require("node:net"); const fs = require("node:fs");
       const listen = net.Server.prototype.listen;
       net.Server.prototype.listen = function (...args) {
         fs.appendFileSync(${JSON.stringify(listens)}, this.constructor.name + " " + JSON.stringify(args[0]) + "\\n");
         return listen.apply(this, args);
       };`,
    );
    // No build yet: start builds first (seconds), the time a listening probe used to hold the port.
    rmSync(join(app, "dist"), { recursive: true, force: true });
    const child: ChildProcess = spawn(process.execPath, [BIN, "start", "--port", String(port)], {
      cwd: app,
      env: cleanEnv({ NODE_OPTIONS: `--require ${hook}` }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const stop = { done: false };
    child.once("exit", () => {
      stop.done = true;
    });
    try {
      const answer = await probeUntilOpen(port, stop);
      expect(answer, output).toMatch(/^HTTP\/1\.1 200 /);
      expect(output).toContain("build");
      const calls = readFileSync(listens, "utf8").trim().split("\n");
      expect(calls).toEqual([`Server ${port}`]);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
