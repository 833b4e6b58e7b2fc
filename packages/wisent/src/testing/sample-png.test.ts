import { fileTypeFromBuffer } from "file-type";
import { describe, expect, it } from "vitest";
import { samplePng } from "./sample-png.js";

describe("samplePng", () => {
  it("is a named File whose bytes are a PNG", async () => {
    const file = samplePng("kindred.png");
    expect(file.name).toBe("kindred.png");
    const type = await fileTypeFromBuffer(new Uint8Array(await file.arrayBuffer()));
    expect(type?.mime).toBe("image/png");
    expect(samplePng().name).toBe("image.png");
  });
});
