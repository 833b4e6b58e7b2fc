import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./test-support/slow-server.mjs", import.meta.url));

function waitForLine(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        child.stdout.off("data", onData);
        resolve(match);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`server exited (${code}) before ${pattern}: ${seen}`)),
    );
  });
}

function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve(`${res.statusCode} ${body}`));
    })
      .on("error", reject)
      .end();
  });
}

describe.each(["SIGTERM", "SIGINT"] as const)("on %s", (signal) => {
  it("finishes the in-flight request, refuses new ones, runs shutdown hooks and exits 0", async () => {
    const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "pipe"] });
    try {
      const [, port] = await waitForLine(child, /listening (\d+)\n/);
      const inFlight = get(Number(port), "/slow");
      await waitForLine(child, /in-flight\n/);
      const exited = new Promise<number | null>((resolve) =>
        child.once("exit", (code) => resolve(code)),
      );
      child.kill(signal);
      await new Promise((r) => setTimeout(r, 200));
      await expect(get(Number(port), "/slow")).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
      const hook = waitForLine(child, /hook\n/);
      child.stdin.write("go\n");
      expect(await inFlight).toBe("200 finished");
      await hook;
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
