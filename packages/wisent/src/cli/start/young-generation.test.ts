import { describe, expect, it } from "vitest";
import { workerExecArgv, YOUNG_GENERATION_FLAG } from "./young-generation.js";

describe("workerExecArgv", () => {
  it("adds the young generation's cap to the process's own flags", () => {
    expect(workerExecArgv(["--enable-source-maps"], undefined)).toEqual([
      "--enable-source-maps",
      YOUNG_GENERATION_FLAG,
    ]);
    expect(YOUNG_GENERATION_FLAG).toBe("--max-semi-space-size=8");
  });

  it("keeps a semi-space size chosen on the command line", () => {
    expect(workerExecArgv(["--max-semi-space-size=32"], undefined)).toEqual([
      "--max-semi-space-size=32",
    ]);
  });

  it("keeps one chosen in NODE_OPTIONS, which a flag of its own would override", () => {
    expect(workerExecArgv([], "--max-old-space-size=512 --max-semi-space-size 4")).toEqual([]);
    expect(workerExecArgv([], "--max-semi-space-size=16")).toEqual([]);
    // A different flag with the same start is not a choice of the semi-space size.
    expect(workerExecArgv([], "--max-semi-space-size-other=1")).toEqual([YOUNG_GENERATION_FLAG]);
  });
});
