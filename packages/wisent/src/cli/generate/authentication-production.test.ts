/**
 * Slow: `wisent generate authentication` under attack, in production. A web app (with a `notes`
 * list) and an API app are made by `wisent new`, built by `wisent build` and run as their
 * Dockerfile says (`wisent db prepare && wisent start`, GO_ENV=production, SQLite), with
 * TRUSTED_PROXIES=127.0.0.1 (this test is the TLS proxy: it writes X-Forwarded-For and
 * X-Forwarded-Proto), and the web app once more trusting another proxy only.
 * Each case is an attack the security review of issue 30 made: sign-ups stalling the database,
 * open redirects after sign-in, replayed cookies, owner lockout, one budget behind a proxy; and
 * the web app mails its reset links through SMTP_URL (a local SMTP server), and does not start
 * without it.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type SmtpSink, smtpSink } from "../../mail/test-support/smtp-sink.js";
import { cleanEnv } from "../test-support/clean-env.js";
import { newApp, SLOW, wisent } from "./test-support/generated-app.js";

const run = promisify(execFile);
const SECRET = "a-production-secret-of-at-least-32-characters";
const PASSWORD = "correct horse battery staple";
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";
let counter = 0;
const newEmail = () => `user-${process.pid}-${++counter}@example.com`;

/** One app process, started as the Dockerfile's CMD does, with its log lines. */
interface Server {
  url: string;
  dbUrl: string;
  log: () => string;
  stop: () => Promise<void>;
}

async function start(
  app: string,
  data: string,
  name: string,
  trusted?: string,
  extra: Record<string, string> = {},
): Promise<Server> {
  const dbUrl = `sqlite:${join(data, `${name}.sqlite`)}`;
  const child: ChildProcess = spawn(
    "sh",
    // --jobs: the reset mail is a job (deliverLater), performed by the server's own worker.
    ["-c", "node_modules/.bin/wisent db prepare && exec node_modules/.bin/wisent start --jobs"],
    {
      cwd: app,
      env: cleanEnv({
        GO_ENV: "production",
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: "0",
        SESSION_SECRET: SECRET,
        DATABASE_URL: dbUrl,
        ...(trusted ? { TRUSTED_PROXIES: trusted } : {}),
        ...extra,
      }),
    },
  );
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`exited (${code}):\n${output}`)));
  });
  return {
    url,
    dbUrl,
    log: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A client of one app: its cookies, and the address the proxy (this test) says it has. */
class Client {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly server: Server,
    readonly address?: string,
  ) {}

  async request(
    method: string,
    path: string,
    options: { json?: unknown; form?: Record<string, string>; accept?: string } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      accept: options.accept ?? "application/json",
      // TLS ends at the proxy; without this (or from an untrusted peer) force-SSL redirects.
      "x-forwarded-proto": "https",
    };
    if (this.address) headers["x-forwarded-for"] = this.address;
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      // A same-origin fetch, as the generated application.js makes it (CSRF rule 3).
      headers["sec-fetch-site"] = "same-origin";
    }
    let body: string | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    }
    const res = await fetch(`${this.server.url}${path}`, {
      method,
      headers,
      body,
      redirect: "manual",
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  /** A page's CSRF token (the form's hidden field). */
  async csrfToken(path: string): Promise<string> {
    const html = await (await this.request("GET", path, { accept: "text/html" })).text();
    const token = /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path}:\n${html.slice(0, 500)}`);
    return token;
  }
}

/** The median of some numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

let root: string;
let data: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-auth-prod-"));
  data = mkdtempSync(join(tmpdir(), "wisent-auth-prod-data-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

/** Makes, generates into and builds an app: `wisent new`, `g auth`, the extra args, `wisent build`. */
async function builtApp(name: string, flags: string[], extra: string[][]): Promise<string> {
  const app = await newApp(root, name, flags);
  await wisent(app, ["g", "auth"]);
  for (const args of extra) await wisent(app, args);
  await run("sh", ["-c", "node_modules/.bin/wisent build"], { cwd: app, env: cleanEnv() });
  return app;
}

describe("generated authentication in a web app, in production", { timeout: SLOW }, () => {
  let app: string;
  let smtp: SmtpSink;
  let trusted: Server;
  let untrusted: Server;
  beforeAll(async () => {
    // The notes list is anyone's (--public: after g auth a resource is owned by default): the
    // request "another user" makes while sign-ups run.
    app = await builtApp("club", [], [["g", "resource", "note", "title", "--public"]]);
    // The reset mail goes out for real in production: to this server.
    smtp = await smtpSink();
    const mail = { SMTP_URL: smtp.url };
    trusted = await start(app, data, "club-trusted", "127.0.0.1, ::1", mail);
    // Behind another proxy: this test's requests come from a peer that is not a trusted proxy.
    untrusted = await start(app, data, "club-untrusted", "10.9.9.9", mail);
  }, SLOW);
  afterAll(async () => {
    await trusted?.stop();
    await untrusted?.stop();
    await smtp?.close();
  }, SLOW);

  /** The reset link mailed to `email` (quoted-printable undone), once the mail has come. */
  async function mailedLink(email: string): Promise<string> {
    let link: string | undefined;
    await vi.waitFor(
      () => {
        const mail = smtp.received
          .map((m) =>
            m
              .replace(/=\r\n/g, "")
              .replace(/=([0-9A-F]{2})/g, (_, h: string) =>
                String.fromCharCode(Number.parseInt(h, 16)),
              ),
          )
          .filter((m) => m.includes(`To: ${email}`))
          // Its sign-up's verification mail came first.
          .find((m) => /\/passwords\/[^\s/]+\/edit/.test(m));
        link = mail && /\/passwords\/[^\s/]+\/edit/.exec(mail)?.[0];
        expect(link).toBeDefined();
      },
      { timeout: 10_000 },
    );
    return link!;
  }

  it("refuses to start without SMTP_URL, naming SMTP_URL and nodemailer", async () => {
    const refused = start(app, data, "club-no-mail");
    await expect(refused).rejects.toThrow(
      /the production environment sends real mail, which needs SMTP_URL \(smtp:\/\/user:password@host:587\) and the package nodemailer \(`npm install nodemailer` in the app's folder\), but SMTP_URL is not set/,
    );
  });

  /** A new account made from `address`; the client is signed in. */
  async function signedUp(server: Server, address?: string) {
    const email = newEmail();
    const client = new Client(server, address);
    const res = await client.request("POST", "/registration", {
      json: { email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return { client, email };
  }

  it("keeps /up at 200 and other users' lists answering while four clients loop sign-ups", async () => {
    const baseline: number[] = [];
    const reader = new Client(trusted, "198.51.100.200");
    for (let i = 0; i < 5; i++) {
      const began = performance.now();
      expect((await reader.request("GET", "/notes")).status).toBe(200);
      baseline.push(performance.now() - began);
    }
    let running = true;
    const signUps = Promise.all(
      [1, 2, 3, 4].map(async (n) => {
        const statuses: number[] = [];
        const client = new Client(trusted, `192.0.2.${n}`);
        // Each keeps its cookie: signed in after the first, as an attacker's script would be.
        for (let i = 0; i < 5; i++) {
          const res = await client.request("POST", "/registration", {
            json: { email: newEmail(), password: PASSWORD, password_confirmation: PASSWORD },
          });
          statuses.push(res.status);
        }
        return statuses;
      }),
    ).finally(() => {
      running = false;
    });
    const up: number[] = [];
    const lists: number[] = [];
    const listTimes: number[] = [];
    const upTimes: number[] = [];
    // A bounded loop of the other requests, for as long as the sign-ups run.
    for (let round = 0; running && round < 1000; round++) {
      let began = performance.now();
      up.push((await reader.request("GET", "/up")).status);
      upTimes.push(performance.now() - began);
      began = performance.now();
      lists.push((await reader.request("GET", "/notes")).status);
      listTimes.push(performance.now() - began);
    }
    const statuses = await signUps;
    expect(statuses.flat()).toEqual(Array(20).fill(201));
    expect(up.length).toBeGreaterThanOrEqual(3);
    expect(up).toEqual(Array(up.length).fill(200));
    expect(lists).toEqual(Array(lists.length).fill(200));
    console.log(
      `four sign-up loops: GET /notes median ${median(baseline).toFixed(1)} ms before, ${median(listTimes).toFixed(1)} ms during (max ${Math.max(...listTimes).toFixed(1)}); GET /up median ${median(upTimes).toFixed(1)} ms (max ${Math.max(...upTimes).toFixed(1)}); ${up.length} rounds`,
    );
  });

  it("goes back only to the page that asked for sign-in, whatever return_to says", async () => {
    const { email } = await signedUp(trusted, "198.51.100.10");
    const variants = [
      "/.//evil.example",
      "/..//evil.example",
      "/x/..//evil.example",
      "/%2e//evil.example",
      "//evil.example",
      "/%2E%2e//evil.example/x",
      "/\\evil.example",
      "/\t/evil.example",
      "https://evil.example/",
      "/registration",
    ];
    for (const [i, variant] of variants.entries()) {
      const client = new Client(trusted, `198.51.101.${i}`);
      const token = await client.csrfToken(`/session/new?return_to=${encodeURIComponent(variant)}`);
      const res = await client.request(
        "POST",
        `/session?return_to=${encodeURIComponent(variant)}`,
        {
          accept: "text/html",
          form: { authenticity_token: token, email, password: PASSWORD, return_to: variant },
        },
      );
      expect(res.status, variant).toBe(303);
      expect(res.headers.get("location"), variant).toBe("/");
    }
    // The page that asked, kept in the session, is where sign-in goes.
    const client = new Client(trusted, "198.51.101.99");
    const asked = await client.request("GET", "/registration", { accept: "text/html" });
    expect(asked.headers.get("location")).toBe("/session/new");
    const token = await client.csrfToken("/session/new");
    const res = await client.request("POST", "/session", {
      accept: "text/html",
      form: { authenticity_token: token, email, password: PASSWORD },
    });
    expect(res.headers.get("location")).toBe("/registration");
  });

  it("signs out a copy of the cookie taken before sign-out", async () => {
    const { client } = await signedUp(trusted, "198.51.100.11");
    expect((await client.request("GET", "/registration")).status).toBe(200);
    const copy = new Client(trusted, "203.0.113.50");
    for (const [k, v] of client.cookies) copy.cookies.set(k, v);
    expect((await client.request("DELETE", "/session")).status).toBe(204);
    const replayed = await copy.request("GET", "/registration");
    expect(replayed.status).toBe(401);
    expect(
      (await copy.request("POST", "/notes", { json: { title: "as the user" } })).status,
    ).not.toBe(500);
  });

  it("signs out a session opened before a password reset", async () => {
    const { client: earlier, email } = await signedUp(trusted, "198.51.100.12");
    expect((await earlier.request("GET", "/registration")).status).toBe(200);
    const owner = new Client(trusted, "198.51.100.13");
    expect((await owner.request("POST", "/passwords", { json: { email } })).status).toBe(303);
    // The link of the mail the app sent, through SMTP_URL, after its answer.
    const link = await mailedLink(email);
    const password = "a brand new passphrase for this";
    const reset = await owner.request("PUT", link.replace(/\/edit$/, ""), {
      json: { password, password_confirmation: password },
    });
    expect(reset.headers.get("location")).toBe("/session/new");
    expect((await earlier.request("GET", "/registration")).status).toBe(401);
  });

  it("never locks the owner out from another address", async () => {
    const { email } = await signedUp(trusted, "198.51.100.14");
    const attacker = new Client(trusted, "203.0.113.66");
    for (let i = 0; i < 10; i++) {
      const res = await attacker.request("POST", "/session", {
        json: { email, password: `wrong guess ${i}` },
      });
      expect(res.status).toBe(422);
    }
    const more = await attacker.request("POST", "/session", {
      json: { email, password: PASSWORD },
    });
    expect(more.status).toBe(429);
    const owner = new Client(trusted, "198.51.100.7");
    expect(
      (await owner.request("POST", "/session", { json: { email, password: PASSWORD } })).status,
    ).toBe(200);
    // The owner's own reset request is not refused either.
    expect((await owner.request("POST", "/passwords", { json: { email } })).status).toBe(303);
  });

  it("lets 12 users behind a trusted proxy each sign in, and logs each one's address", async () => {
    const users = [];
    for (let i = 0; i < 12; i++) users.push((await signedUp(trusted, `198.18.0.${i}`)).email);
    for (const [i, email] of users.entries()) {
      const client = new Client(trusted, `198.18.1.${i}`);
      const res = await client.request("POST", "/session", { json: { email, password: PASSWORD } });
      expect(res.status, email).toBe(200);
    }
    // The line is written as the answer leaves: wait for it to come through the pipe.
    await vi.waitFor(() => expect(trusted.log()).toContain('"client_address":"198.18.1.11"'), {
      timeout: 10_000,
    });
  });

  it("gives a client that writes its own X-Forwarded-For one budget: the proxy's hop counts", async () => {
    const { email } = await signedUp(trusted, "198.51.100.30");
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      // The client sent "X-Forwarded-For: 203.0.113.1xx"; the proxy appended the real address.
      const spoofer = new Client(trusted, `203.0.113.${100 + i}, 198.51.100.77`);
      statuses.push(
        (await spoofer.request("POST", "/session", { json: { email, password: PASSWORD } })).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    await vi.waitFor(() => expect(trusted.log()).toContain('"client_address":"198.51.100.77"'), {
      timeout: 10_000,
    });
    expect(trusted.log()).not.toContain('"client_address":"203.0.113.1');
  });

  it("believes no forwarding header from a peer outside TRUSTED_PROXIES: redirected, and says why", async () => {
    const spoofer = new Client(untrusted, "203.0.113.99");
    const res = await spoofer.request("POST", "/session", {
      json: { email: newEmail(), password: PASSWORD },
    });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/session$/);
    await vi.waitFor(
      () =>
        expect(untrusted.log()).toMatch(
          /forceSSL: a request from 127\.0\.0\.1 says it came over HTTPS.*TRUSTED_PROXIES/,
        ),
      { timeout: 10_000 },
    );
  });

  it("refuses a common or easily guessed password and the email as password, naming the field", async () => {
    const client = new Client(trusted, "198.51.100.15");
    for (const [password, why] of [
      ["password1234", /too common/],
      ["ada.lovelace@example.com", /email address/],
      ["aaaaaaaaaaaa", /too easy to guess: it repeats one character/],
      [" ".repeat(12), /too easy to guess: it repeats one character/],
      ["abcdefghijkl", /too easy to guess: it is a sequence/],
    ] as const) {
      const res = await client.request("POST", "/registration", {
        json: { email: "ada.lovelace@example.com", password, password_confirmation: password },
      });
      expect(res.status).toBe(422);
      const { errors } = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(errors)).toEqual(["password"]);
      expect(errors.password?.join(" ")).toMatch(why);
    }
  });

  it("answers JSON 401 and 404 with the data CSP, and no Bearer challenge", async () => {
    const client = new Client(trusted, "198.51.100.16");
    const unauthorized = await client.request("GET", "/registration");
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toBeNull();
    expect(unauthorized.headers.get("content-security-policy")).toBe(DATA_CSP);
    const missing = await client.request("GET", "/notes/0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-security-policy")).toBe(DATA_CSP);
  });
});

describe("generated authentication in an API app, in production", { timeout: SLOW }, () => {
  let trusted: Server;
  beforeAll(async () => {
    const app = await builtApp("inventory", ["--api"], []);
    trusted = await start(app, data, "inventory-trusted", "127.0.0.1, ::1");
  }, SLOW);
  afterAll(async () => {
    await trusted?.stop();
  }, SLOW);

  async function account(server: Server, address?: string): Promise<string> {
    const email = newEmail();
    const res = await new Client(server, address).request("POST", "/user", {
      json: { email, password: PASSWORD },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return email;
  }

  const tokenStatus = async (client: Client, email: string, password = PASSWORD) =>
    (await client.request("POST", "/tokens", { json: { email, password } })).status;

  it("lets 12 users behind a trusted proxy each get a token", async () => {
    const users = [];
    for (let i = 0; i < 12; i++) users.push(await account(trusted, `198.18.2.${i}`));
    for (const [i, email] of users.entries()) {
      expect(await tokenStatus(new Client(trusted, `198.18.3.${i}`), email), email).toBe(201);
    }
  });

  it("never locks the owner out from another address", async () => {
    const email = await account(trusted, "198.51.100.20");
    const attacker = new Client(trusted, "203.0.113.67");
    for (let i = 0; i < 10; i++) expect(await tokenStatus(attacker, email, `guess ${i}`)).toBe(401);
    expect(await tokenStatus(attacker, email)).toBe(429);
    expect(await tokenStatus(new Client(trusted, "198.51.100.8"), email)).toBe(201);
  });

  it("gives a client that writes its own X-Forwarded-For one budget: the proxy's hop counts", async () => {
    const email = await account(trusted, "198.51.100.31");
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      const spoofer = new Client(trusted, `203.0.113.${150 + i}, 198.51.100.78`);
      statuses.push(await tokenStatus(spoofer, email));
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
  });

  it("counts a client's IPv6 /64 as one address", async () => {
    const email = await account(trusted, "198.51.100.32");
    const statuses = [];
    for (let i = 1; i <= 11; i++) {
      const client = new Client(trusted, `2001:db8:38:64::${i.toString(16)}`);
      statuses.push(await tokenStatus(client, email));
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
  });

  it("answers 401 with a Bearer challenge and the data CSP; refuses common passwords", async () => {
    const client = new Client(trusted, "198.51.100.21");
    const res = await client.request("GET", "/user");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(res.headers.get("content-security-policy")).toBe(DATA_CSP);
    const weak = await client.request("POST", "/user", {
      json: { email: newEmail(), password: "password1234" },
    });
    expect(weak.status).toBe(422);
    expect(Object.keys(((await weak.json()) as { errors: object }).errors)).toEqual(["password"]);
  });
});
