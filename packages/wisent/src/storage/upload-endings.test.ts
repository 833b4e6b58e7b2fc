/**
 * However a multipart request ends, over a real socket, its temporary files are deleted and their
 * descriptors closed: the client closes or resets the connection inside a part, the request
 * times out, CSRF refuses it, the body passes the upload limit (413), its coding is refused
 * (415), validation refuses the file (422), the handler throws.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { HttpError } from "../base/http-error.js";
import { defineModel } from "../data/model.js";
import "../http/bind.js";
import { csrf } from "../middleware/csrf/csrf.js";
import { session } from "../middleware/session/session.js";
import type { RunningServer } from "../server/listen.js";
import { attachment } from "./attachment-rule.js";
import { EXE, PNG } from "./test-support/sample-files.js";
import { eventually, nothingLeft, uploadFiles } from "./test-support/upload-leftovers.js";
import { UploadedFile } from "./uploaded-file.js";

const UPLOAD_LIMIT = 256 * 1024;
const REQUEST_TIMEOUT_MS = 1_000;

const Photo = defineModel({
  table: "photos",
  schema: z.object({
    caption: z.string().min(1),
    file: attachment({ types: ["image/*"] }),
  }),
});

/** The paths of the files handlers were given. */
const given: string[] = [];
function remember(input: Record<string, unknown>): Record<string, unknown> {
  for (const value of Object.values(input))
    if (value instanceof UploadedFile) given.push(value.path);
  return input;
}

let server: RunningServer;
let token = "";
let cookie = "";
/** A temporary file a process that died left behind, before the server started. */
let leftBehind = "";

beforeAll(async () => {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  const deadFolder = join(process.cwd(), "tmp", "uploads", String(child.pid));
  mkdirSync(deadFolder, { recursive: true });
  leftBehind = join(deadFolder, "01a2-left-behind");
  writeFileSync(leftBehind, "bytes");

  const app = new App({ name: "uploads", env: "test", uploadLimit: UPLOAD_LIMIT });
  app.use(session({ secret: "u".repeat(32) }));
  app.use(csrf());
  app.get("/form", (c) => c.text(c.csrfToken()));
  app.post("/photos", async (c) => {
    const result = Photo.validate(remember(await c.bind()));
    if (!result.ok) return c.json(result.errors, 422);
    return c.json({ created: true }, 201);
  });
  app.post("/thrown", async (c) => {
    remember(await c.bind());
    throw new Error("the handler failed");
  });
  app.post("/only-pdf", async (c) => {
    remember(await c.bind());
    throw new HttpError(415, "only PDF files are taken here");
  });
  server = await app.listen({
    port: 0,
    handleSignals: false,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  const form = await fetch(`${server.url}/form`);
  token = await form.text();
  cookie = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
});

afterAll(() => server?.close());

const BOUNDARY = "XyZ";

/** A multipart body: the token (unless left out), a caption, then `file` as the last part. */
function multipart(file: Buffer, name = "cat.png", withToken = true): Buffer {
  const field = (key: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  return Buffer.concat([
    Buffer.from(
      `${withToken ? field("authenticity_token", token) : ""}${field("caption", "Cat")}` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        "Content-Type: image/png\r\n\r\n",
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

function post(path: string, body: Buffer, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      cookie,
      accept: "application/json",
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      ...headers,
    },
    body: new Uint8Array(body),
  });
}

/**
 * Sends the head of a multipart request and its body up to where a file part's bytes have begun,
 * waits until the server has that part's temporary file open, then ends the exchange as `end`
 * says. Resolves with what the server answered, if anything.
 */
async function breakOff(end: (socket: Socket) => void): Promise<string> {
  const body = multipart(Buffer.concat([PNG, Buffer.alloc(200 * 1024, 0x61)]));
  const begun = body.subarray(0, body.length - 100 * 1024);
  const socket = connect(server.port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk.toString("latin1");
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(
    `POST /photos HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(begun);
  expect(await eventually(() => uploadFiles().length > 0)).toBe(true);
  end(socket);
  await closed;
  return answer;
}

describe("an upload's temporary files, however its request ends", () => {
  it("of a process that died are removed when the server starts", () => {
    expect(existsSync(leftBehind)).toBe(false);
  });

  it("are closed and deleted when the client closes the connection inside a part", async () => {
    await breakOff((socket) => socket.destroy());
    expect(await eventually(nothingLeft)).toBe(true);
  });

  it("are closed and deleted when the client resets the connection inside a part", async () => {
    await breakOff((socket) => socket.resetAndDestroy());
    expect(await eventually(nothingLeft)).toBe(true);
  });

  it("are closed and deleted when the request times out (the client stops sending)", async () => {
    // Nothing more is sent: the server's request timeout ends it.
    const answer = await breakOff(() => {});
    expect(answer).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(await eventually(nothingLeft)).toBe(true);
  }, 10_000);

  it("are deleted before the answer when CSRF refuses the form (403)", async () => {
    const res = await post("/photos", multipart(PNG, "cat.png", false));
    expect(res.status).toBe(403);
    expect(nothingLeft()).toBe(true);
  });

  it("are closed and deleted when the body passes the upload limit while it streams (413)", async () => {
    const body = multipart(Buffer.alloc(2 * UPLOAD_LIMIT, 0x61));
    let at = 0;
    // No declared length (chunked): the limit is found while the file is being written.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.length) return controller.close();
        controller.enqueue(new Uint8Array(body.subarray(at, at + 16 * 1024)));
        at += 16 * 1024;
      },
    });
    const res = await fetch(`${server.url}/photos`, {
      method: "POST",
      headers: { cookie, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(nothingLeft()).toBe(true);
  });

  it("are never written when the body's coding is refused (415), nor when a handler refuses it with 415", async () => {
    const coded = await post("/photos", multipart(PNG), { "content-encoding": "gzip" });
    expect(coded.status).toBe(415);
    expect(nothingLeft()).toBe(true);
    given.length = 0;
    const refused = await post("/only-pdf", multipart(PNG));
    expect(refused.status).toBe(415);
    expect(given).toHaveLength(1);
    expect(given.some((path) => existsSync(path))).toBe(false);
    expect(nothingLeft()).toBe(true);
  });

  it("are deleted when validation refuses the file (422)", async () => {
    given.length = 0;
    const res = await post("/photos", multipart(EXE, "cat.png"));
    expect(res.status).toBe(422);
    expect((await res.json()).errors.file[0]).toMatch(/^File must be any image/);
    expect(given).toHaveLength(1);
    expect(given.some((path) => existsSync(path))).toBe(false);
    expect(nothingLeft()).toBe(true);
  });

  it("are deleted when the handler throws (500)", async () => {
    given.length = 0;
    const res = await post("/thrown", multipart(PNG));
    expect(res.status).toBe(500);
    expect(given).toHaveLength(1);
    expect(given.some((path) => existsSync(path))).toBe(false);
    expect(nothingLeft()).toBe(true);
  });

  it("are deleted after a created record too (201)", async () => {
    given.length = 0;
    const res = await post("/photos", multipart(PNG));
    expect(res.status).toBe(201);
    expect(given).toHaveLength(1);
    expect(nothingLeft()).toBe(true);
  });
});
