/**
 * Slow: the generated authentication's mail in production, deployed as two processes: `wisent
 * start` (HTTP only) and `wisent jobs work` (the worker), with SMTP_URL naming a local SMTP server,
 * on SQLite and on PostgreSQL. A sign-up and a reset request send no mail while no worker runs
 * (their mails wait in the jobs table); starting the worker delivers them; an SMTP server that
 * refuses the reset mail twice (421) gets it on the third try, after the backoff (30 s, then 1 min,
 * each with jitter: this suite waits up to 3 minutes per database); a worker killed (SIGKILL)
 * while the SMTP server stalls on the reset mail leaves it to the next worker, once its lease
 * has run out (30 s).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../data/database.js";
import { availableDialects } from "../../data/test-support/test-databases.js";
import { listJobs } from "../../jobs/job-store.js";
import { type SmtpSink, smtpSink } from "../../mail/test-support/smtp-sink.js";
import { cleanEnv } from "../test-support/clean-env.js";
import { newApp, wisent } from "./test-support/generated-app.js";

const run = promisify(execFile);
const available = await availableDialects();
const SECRET = "a-production-secret-of-at-least-32-characters";
const PASSWORD = "correct horse battery staple";
const POSTGRES = "postgres://postgres@127.0.0.1:5432";
/** Two retries of the reset mail: up to 30 s and 60 s of backoff, and the worker's polling. */
const DELIVERY = 180_000;

/** A process of the app, run as its Dockerfile would, with its output. */
interface AppProcess {
  output: () => string;
  stop: () => Promise<void>;
  /** SIGKILL: no chance to give its jobs back. */
  kill: () => Promise<void>;
}

function launch(app: string, command: string, env: Record<string, string>): AppProcess {
  const child: ChildProcess = spawn("sh", ["-c", command], {
    cwd: app,
    env: cleanEnv({ GO_ENV: "production", NODE_ENV: "production", SESSION_SECRET: SECRET, ...env }),
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `wisent db prepare && wisent start`, HTTP only; resolves with its URL once it listens. */
async function startServer(app: string, env: Record<string, string>) {
  const server = launch(
    app,
    "node_modules/.bin/wisent db prepare && exec node_modules/.bin/wisent start",
    { HOST: "127.0.0.1", PORT: "0", TRUSTED_PROXIES: "127.0.0.1", ...env },
  );
  let url: string | undefined;
  await vi.waitFor(
    () => {
      url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1];
      expect(url, server.output()).toBeDefined();
    },
    { timeout: 60_000, interval: 100 },
  );
  return { ...server, url: url! };
}

/** A JSON request from a browser behind the TLS proxy (this test). */
function post(url: string, path: string, json: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      "x-forwarded-proto": "https",
    },
    body: JSON.stringify(json),
    redirect: "manual",
  });
}

/** A mail's text with quoted-printable undone (soft line breaks, `=XX`). */
const decoded = (mail: string) =>
  mail
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
const isReset = (mail: string) => mail.includes("Subject: Reset your password");
const isVerification = (mail: string) => mail.includes("Subject: Verify your email address");

let root: string;
let app: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-auth-mail-"));
  app = await newApp(root, "mailclub");
  await wisent(app, ["g", "auth"]);
  await run("sh", ["-c", "node_modules/.bin/wisent build"], { cwd: app, env: cleanEnv() });
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A deployment of the app on one database: the server, an SMTP sink, the jobs table to look at. */
interface Deployment {
  readonly url: string;
  readonly sink: SmtpSink;
  readonly env: Record<string, string>;
  readonly db: Awaited<ReturnType<typeof openDatabase>>;
  /** Signs up `email` (its verification mail is a job) and asks for a reset link (another). */
  signUpAndReset(email: string): Promise<void>;
}

/** Runs `body` with the server started on a new database of `dialect`, then cleans up. */
async function deployed(
  dialect: "sqlite" | "postgres",
  atEnd: (mail: string) => "refuse" | "stall" | "accept",
  body: (deployment: Deployment) => Promise<void>,
): Promise<void> {
  const name = `wisent_mail_${process.pid}_${Date.now()}`;
  const databaseUrl =
    dialect === "sqlite" ? `sqlite:${join(root, `${name}.sqlite`)}` : `${POSTGRES}/${name}`;
  const sink = await smtpSink(undefined, { atEnd });
  const env = { DATABASE_URL: databaseUrl, SMTP_URL: sink.url };
  const server = await startServer(app, env);
  const db = await openDatabase(databaseUrl);
  try {
    await body({
      url: server.url,
      sink,
      env,
      db,
      async signUpAndReset(email) {
        const signUp = await post(server.url, "/registration", {
          email,
          password: PASSWORD,
          password_confirmation: PASSWORD,
        });
        expect(signUp.status, await signUp.clone().text()).toBe(201);
        expect((await post(server.url, "/passwords", { email })).status).toBe(303);
      },
    });
  } finally {
    await server.stop();
    await db.close();
    await sink.close();
    if (dialect === "postgres") {
      const admin = await openDatabase(`${POSTGRES}/test`);
      await sql.raw(`drop database if exists ${name}`).execute(admin.kysely);
      await admin.close();
    }
  }
}

describe.each([
  ["SQLite", "sqlite"],
  ["PostgreSQL", "postgres"],
] as const)("generated authentication's mail in production on %s", (_name, dialect) => {
  const run = it.skipIf(!available[dialect]);

  run(
    "sends nothing without a worker; the worker delivers, through two 421s on the third try",
    { timeout: DELIVERY + 120_000 },
    async () => {
      let resetRefusals = 0;
      // The reset mail is refused twice (421 once its DATA has come); every other mail taken.
      const atEnd = (mail: string) =>
        isReset(mail) && resetRefusals++ < 2 ? ("refuse" as const) : ("accept" as const);
      await deployed(dialect, atEnd, async ({ sink, env, db, signUpAndReset }) => {
        const email = `user-${process.pid}-${dialect}-421@example.com`;
        await signUpAndReset(email);

        // No worker: both mails wait in the jobs table, and the SMTP server has heard nothing.
        const waiting = await listJobs(db.kysely);
        expect(waiting.map((job) => [job.name, job.state])).toEqual([
          ["wisent.deliver_mail", "queued"],
          ["wisent.deliver_mail", "queued"],
        ]);
        const subjects = waiting.map(
          (job) => (JSON.parse(job.payload) as { message: { subject: string } }).message.subject,
        );
        expect(subjects.sort()).toEqual(["Reset your password", "Verify your email address"]);
        expect(sink.received).toEqual([]);
        expect(sink.refused()).toBe(0);

        const worker = launch(app, "exec node_modules/.bin/wisent jobs work", env);
        try {
          await vi.waitFor(
            () => expect(sink.received.filter(isReset), worker.output()).toHaveLength(1),
            { timeout: DELIVERY, interval: 250 },
          );
          expect(sink.refused()).toBe(2);
          expect(sink.received.filter(isVerification)).toHaveLength(1);
          expect(sink.received.every((mail) => mail.includes(`To: ${email}`))).toBe(true);
          expect(decoded(sink.received.find(isReset)!)).toMatch(/\/passwords\/[\w.-]+\/edit/);
          // One job, refused on its first and second attempts, sent on its third.
          const failures = [
            ...worker
              .output()
              .matchAll(
                /job wisent\.deliver_mail (\S+) failed \(attempt (\d+) of 10\), retrying in \d+s: .*421/g,
              ),
          ];
          expect(
            failures.map((m) => m[2]),
            worker.output(),
          ).toEqual(["1", "2"]);
          expect(new Set(failures.map((m) => m[1])).size).toBe(1);
          await vi.waitFor(async () => expect(await listJobs(db.kysely)).toEqual([]), {
            timeout: 10_000,
          });
        } finally {
          await worker.stop();
        }
      });
    },
  );

  run(
    "leaves the mail of a worker killed while the SMTP server stalls to the next worker",
    { timeout: 180_000 },
    async () => {
      let resetStalls = 0;
      // The reset mail's first DATA is never answered; every other mail taken.
      const atEnd = (mail: string) =>
        isReset(mail) && resetStalls++ < 1 ? ("stall" as const) : ("accept" as const);
      await deployed(dialect, atEnd, async ({ sink, env, db, signUpAndReset }) => {
        const email = `user-${process.pid}-${dialect}-kill@example.com`;
        await signUpAndReset(email);
        const first = launch(app, "exec node_modules/.bin/wisent jobs work", env);
        let second: AppProcess | undefined;
        try {
          await vi.waitFor(() => expect(sink.stalled(), first.output()).toBe(1), {
            timeout: 60_000,
            interval: 100,
          });
          await first.kill();
          // Taken by the dead worker, and not sent.
          const [held] = (await listJobs(db.kysely)).filter((job) =>
            job.payload.includes("Reset your password"),
          );
          expect(held?.state).toBe("running");
          expect(sink.received.filter(isReset)).toEqual([]);

          second = launch(app, "exec node_modules/.bin/wisent jobs work", env);
          const next = second;
          await vi.waitFor(
            () => expect(sink.received.filter(isReset), next.output()).toHaveLength(1),
            { timeout: 120_000, interval: 250 },
          );
          expect(decoded(sink.received.find(isReset)!)).toMatch(/\/passwords\/[\w.-]+\/edit/);
          // At least once: a verification mail sent but not yet marked done at the kill goes twice.
          expect(sink.received.filter(isVerification).length).toBeGreaterThanOrEqual(1);
          await vi.waitFor(async () => expect(await listJobs(db.kysely)).toEqual([]), {
            timeout: 10_000,
          });
        } finally {
          await first.kill();
          await second?.stop();
        }
      });
    },
  );
});
