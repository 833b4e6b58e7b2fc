import { describe, expect, it } from "vitest";
import { z } from "zod";
import { attachment, attachments, fileAccept } from "./attachment-rule.js";

describe("fileAccept", () => {
  it("is the types the model's rule allows, so a form narrows with its model", () => {
    const schema = z.object({
      cover: attachment({ types: ["image/png", "image/jpeg"], optional: true }),
      scans: attachments({ types: ["application/pdf"] }),
      any: attachment(),
      title: z.string(),
    });
    expect(fileAccept(schema.shape.cover)).toBe("image/png,image/jpeg");
    expect(fileAccept(schema.shape.scans)).toBe("application/pdf");
    expect(fileAccept(schema.shape.any)).toBeUndefined();
    expect(fileAccept(schema.shape.title)).toBeUndefined();
  });
});
