import { describe, expect, it } from "vitest";
import { announceStartupNotices, NOTICES_SHOWN, startupNotices } from "./startup-notices.js";
import { runModule } from "./test-support/run-module.js";

const UNKNOWN = "is not development, test or production";

describe("start-up notices, once per process tree", () => {
  it("prints a notice once and records it for the processes started after", () => {
    const env: NodeJS.ProcessEnv = {};
    const printed: string[] = [];
    announceStartupNotices("staging", env, (n) => printed.push(n));
    announceStartupNotices("staging", env, (n) => printed.push(n));
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(UNKNOWN);
    expect(env[NOTICES_SHOWN]).toMatch(/^[0-9a-z]+$/);
    // Another notice is still printed: the marker names each one.
    announceStartupNotices("prod", env, (n) => printed.push(n));
    expect(printed).toHaveLength(2);
    expect(startupNotices("production")).toEqual([]);
  });

  it("is printed by the parent only, not by the workers it starts (as wisent start's primary)", () => {
    const app = JSON.stringify(new URL("./app.ts", import.meta.url).pathname);
    const notices = JSON.stringify(new URL("./startup-notices.ts", import.meta.url).pathname);
    // Each worker makes an App, as a cluster worker loading the app does.
    const worker = `import { App } from ${app}; new App({ name: "worker" });`;
    const tree = (parentAnnounces: boolean) => `
      import { spawnSync } from "node:child_process";
      import { announceStartupNotices } from ${notices};
      process.env.GO_ENV = "staging";
      delete process.env.${NOTICES_SHOWN};
      if (${parentAnnounces}) announceStartupNotices("staging", process.env, (n) => console.log(n));
      for (const n of [1, 2]) {
        const args = ["--import", "tsx", "--input-type=module", "-e", ${JSON.stringify(worker)}];
        const child = spawnSync(process.execPath, args, { encoding: "utf8" });
        process.stdout.write(child.stdout + child.stderr);
      }
    `;
    const count = (output: string) => output.split(UNKNOWN).length - 1;
    expect(count(runModule(tree(true)))).toBe(1);
    // Without the parent's marker each worker prints it: what the marker saves.
    const alone = runModule(tree(false));
    expect(count(alone), alone).toBe(2);
  });
});
