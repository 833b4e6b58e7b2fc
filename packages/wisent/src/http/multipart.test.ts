import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { HttpError } from "../base/http-error.js";
import { lazyRequest, realRequestBuilt } from "../kernel/node-request.js";
import { PNG } from "../storage/test-support/sample-files.js";
import {
  eventually,
  nothingLeft,
  openUploadDescriptors,
  uploadFiles,
} from "../storage/test-support/upload-leftovers.js";
import { temporaryUploadFolder, withUploadScope } from "../storage/upload-scope.js";
import { UploadedFile } from "../storage/uploaded-file.js";
import { readMultipart } from "./multipart.js";

const TYPE = "multipart/form-data; boundary=XyZ";

/** The start of a body: a caption field, then a file part whose bytes have begun. */
const FILE_BEGUN = Buffer.concat([
  Buffer.from(
    '--XyZ\r\nContent-Disposition: form-data; name="caption"\r\n\r\nCat\r\n' +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="cat.png"\r\n' +
      "Content-Type: image/png\r\n\r\n",
  ),
  PNG,
]);

/**
 * A request whose body sends `first`, then (once its file is on disk, or after `more` chunks of
 * `filler`) breaks off with `error`, as a client that closes the connection mid-part does.
 */
function brokenOffRequest(first: Buffer, error: Error): Request {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new Uint8Array(first));
        return;
      }
      // Only once the part's temporary file exists: the case that leaked it.
      await eventually(() => uploadFiles().length > 0 && openUploadDescriptors().length > 0);
      controller.error(error);
    },
  });
  return new Request("http://localhost/images", {
    method: "POST",
    headers: { "content-type": TYPE },
    body,
    duplex: "half",
  } as RequestInit);
}

/** A request whose body is `bytes`, sent in pieces with no declared length (chunked). */
function streamedRequest(bytes: Buffer): Request {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + 16 * 1024)));
      at += 16 * 1024;
    },
  });
  return new Request("http://localhost/images", {
    method: "POST",
    headers: { "content-type": TYPE },
    body,
    duplex: "half",
  } as RequestInit);
}

async function failure(read: Promise<unknown>): Promise<HttpError> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("readMultipart", () => {
  it("writes each file under the app's tmp/uploads/<pid>/, and the scope deletes it at the end", async () => {
    const body = Buffer.concat([FILE_BEGUN, Buffer.from("\r\n--XyZ--\r\n")]);
    let seen: UploadedFile | undefined;
    let existed = false;
    await withUploadScope(1024 * 1024, async () => {
      const entries = await readMultipart(streamedRequest(body), TYPE);
      seen = entries.find(([name]) => name === "file")?.[1] as UploadedFile;
      existed = uploadFiles().length === 1;
    });
    expect(seen).toBeInstanceOf(UploadedFile);
    expect(seen!.path.startsWith(`${process.cwd()}/tmp/uploads/${process.pid}/`)).toBe(true);
    expect(seen!.path.startsWith(temporaryUploadFolder())).toBe(true);
    expect(existed).toBe(true);
    expect(nothingLeft()).toBe(true);
  });

  it("closes and deletes the file of a part the client broke off (closed or reset mid-part): 400", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    const error = await failure(
      withUploadScope(1024 * 1024, () =>
        readMultipart(brokenOffRequest(FILE_BEGUN, aborted), TYPE),
      ),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain("aborted");
    expect(nothingLeft()).toBe(true);
  }, 10_000);

  it("closes and deletes the file it was writing when the body passes the upload limit: 413", async () => {
    const body = Buffer.concat([FILE_BEGUN, Buffer.alloc(256 * 1024, 0x61)]);
    const error = await failure(
      withUploadScope(64 * 1024, () => readMultipart(streamedRequest(body), TYPE)),
    );
    expect(error.status).toBe(413);
    expect(nothingLeft()).toBe(true);
  }, 10_000);

  it("closes and deletes the file of a part the body ends inside (a malformed body): 400", async () => {
    const error = await failure(
      withUploadScope(1024 * 1024, () => readMultipart(streamedRequest(FILE_BEGUN), TYPE)),
    );
    expect(error.status).toBe(400);
    expect(nothingLeft()).toBe(true);
  }, 10_000);

  it("refuses a Content-Type without a boundary (400) without touching the body", async () => {
    const server = createServer((incoming, outgoing) => {
      const request = lazyRequest(incoming, "http://localhost/images");
      readMultipart(request, "multipart/form-data").then(
        () => outgoing.end("read"),
        (error: HttpError) => outgoing.end(`${error.status} built:${realRequestBuilt(request)}`),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/images`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data" },
        body: "x".repeat(1000),
      });
      // No web stream was put over the body: the answer can drain it (server/refused-body.ts).
      expect(await res.text()).toBe("400 built:false");
    } finally {
      server.close();
    }
  });
});
