// No secret is logged: passwords, tokens and other filtered parameters in every body format and
// the query, CSRF tokens, session cookies, the session secret and the database password never
// appear in the captured log output, on success, failure or error paths.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../support/server.js";
import { Browser, tokenFrom } from "./support/browser.js";
import {
  postgresDatabase,
  sharedPostgresAvailable,
  sqliteDatabase,
  type TestDatabase,
} from "./support/databases.js";
import { report } from "./support/figures.js";
import { send } from "./support/http.js";
import { startShop } from "./support/shop.js";

const SESSION_SECRET = "session-secret-that-must-never-be-logged-9f8e7d";
const DB_PASSWORD = "db-password-that-must-never-be-logged-1a2b";
const SECRETS = {
  password: "pw-hunter2-LOGGED?",
  password_confirmation: "pw-confirm-LOGGED?",
  api_token: "tok-abc123-LOGGED?",
  client_secret: "cs-xyz789-LOGGED?",
  credit_card: "4111111111111111",
  cvc: "737-LOGGED?",
};
const postgres = await sharedPostgresAvailable();

describe("no secret in the logs", () => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = postgres ? await postgresDatabase() : await sqliteDatabase();
    // trust authentication ignores the password, so it can be in the URL and must stay out of logs.
    const url = postgres ? db.url.replace("postgres@", `postgres:${DB_PASSWORD}@`) : db.url;
    server = await startShop({
      databaseUrl: url,
      faults: true,
      env: { SESSION_SECRET, GO_ENV: "development" },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("keeps filtered parameters, tokens, cookies and secrets out of every log line", async () => {
    const browser = new Browser(server.url);
    const form = await browser.get("/widgets/new");
    const token = tokenFrom(form.body);
    const query = new URLSearchParams(SECRETS).toString();
    const json = (path: string, method = "POST", extra: Record<string, unknown> = {}) =>
      send(server.url, path, {
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          cookie: browser.cookieHeader,
          // A body that is not a form, with the session cookie: csrf() asks for the header.
          "x-csrf-token": token,
        },
        body: JSON.stringify({
          title: "logged",
          ...SECRETS,
          user: { ...SECRETS },
          list: [SECRETS],
          ...extra,
        }),
      });
    // A token that differs from the real one in its first character, which base64url decodes
    // whole (the last one carries padding bits: changing it could leave the token valid).
    const wrongToken = `${token.startsWith("A") ? "B" : "A"}${token.slice(1)}`;
    const replies = [
      await browser.post("/widgets", { authenticity_token: token, title: "form", ...SECRETS }),
      await browser.post("/widgets", { authenticity_token: token, title: "", ...SECRETS }), // 422
      await browser.post("/widgets", { authenticity_token: wrongToken, ...SECRETS }), // 403
      await browser.post(`/widgets?${query}`, { title: "query" }, { "x-csrf-token": token }),
      await json("/widgets"),
      await json("/widgets", "POST", { title: "" }), // 422
      await json("/faults/throw"), // 500: the error path logs a trace
      await json("/faults/unexpected"),
      await send(server.url, "/widgets", {
        method: "POST",
        headers: { "content-type": "application/xml", accept: "application/xml" },
        body: `<widget><title>xml</title>${Object.entries(SECRETS)
          .map(([k, v]) => `<${k}>${v}</${k}>`)
          .join("")}</widget>`,
      }),
      await send(server.url, "/widgets", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: `{"title": "broken", "password": "${SECRETS.password}"`, // 400 malformed
      }),
      await browser.get(`/widgets?${query}`),
      await browser.get(`/nowhere?${query}`),
    ];
    const statuses = replies.map((r) => r.status);
    expect(statuses).toEqual([303, 422, 403, 303, 201, 422, 500, 500, 201, 400, 200, 404]);

    const cookies = [...browser.cookies.values()];
    const output = server.output();
    const forbidden = [...Object.values(SECRETS), SESSION_SECRET, DB_PASSWORD, token, ...cookies];
    for (const secret of forbidden) {
      expect(output.includes(secret), `logged: ${secret.slice(0, 24)}`).toBe(false);
    }
    // Not vacuous: every request was logged (development's log: one line a request, with its
    // parameters and form fields), with the parameters filtered, and the 500s with their trace.
    const lines = output.split("\n");
    const requestLines = lines.filter((l) => /^(GET|POST) \S+ \d{3} /.test(l));
    expect(requestLines.length).toBeGreaterThanOrEqual(replies.length);
    expect(output).toContain("[FILTERED]");
    expect(output).toContain("unhandled error");
    report("secrets in logs", {
      requests: replies.length,
      statuses,
      request_lines: requestLines.length,
      secrets_checked: forbidden.length,
      secrets_found: 0,
    });
  });
});
