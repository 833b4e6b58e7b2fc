import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineModel } from "./model.js";

const schema = z.object({ title: z.string().min(1) });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The lines the process-wide logger writes to stderr while `run` runs. */
function stderrLines(run: () => void): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  run();
  vi.restoreAllMocks();
  return lines;
}

describe("fields a model does not know (unpermitted parameters)", () => {
  it("are logged in development, once, naming the fields and the model, and dropped", () => {
    vi.stubEnv("GO_ENV", "development");
    const Widget = defineModel({ table: "widgets", schema });
    let result: ReturnType<typeof Widget.validate> | undefined;
    const lines = stderrLines(() => {
      result = Widget.validate({ title: "T", colour: "red", size: 3, id: "kept", updated_at: "x" });
    });
    expect(result!.ok).toBe(true);
    expect(result!.data).toEqual({ title: "T" });
    expect(lines).toHaveLength(1);
    // Development's logger writes readable lines (JSON lines are production's).
    expect(lines[0]).toMatch(/^warning: Unpermitted parameters: colour, size \(widget\)/);
  });

  it("are a 422 naming each field with unpermitted: error, in any environment", () => {
    vi.stubEnv("GO_ENV", "production");
    const Widget = defineModel({ table: "widgets", schema, unpermitted: "error" });
    const result = Widget.validate({ title: "T", colour: "red" });
    expect(result.ok).toBe(false);
    expect(result.errors!.toJSON()).toEqual({
      errors: { colour: ["Colour is not a field of widget."] },
    });
  });

  it("are dropped quietly outside development, and with unpermitted: ignore", () => {
    vi.stubEnv("GO_ENV", "test");
    const quiet = defineModel({ table: "widgets", schema });
    vi.stubEnv("GO_ENV", "development");
    const ignoring = defineModel({ table: "widgets", schema, unpermitted: "ignore" });
    const lines = stderrLines(() => {
      vi.stubEnv("GO_ENV", "test");
      expect(quiet.validate({ title: "T", colour: "red" }).ok).toBe(true);
      vi.stubEnv("GO_ENV", "development");
      expect(ignoring.validate({ title: "T", colour: "red" }).ok).toBe(true);
    });
    expect(lines).toEqual([]);
  });
});
