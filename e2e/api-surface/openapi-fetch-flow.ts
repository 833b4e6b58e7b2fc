/**
 * The program a third-party TypeScript client would write against a generated API app: types
 * from `openapi-typescript`, calls through `openapi-fetch`, no casts. It signs up, gets a token,
 * creates, partially updates and deletes a gadget and one of its parts, revokes the token, and
 * prints every answer (method, documented path, status, content type, Location, body) as JSON
 * for the test to validate against the document. Compiled by `tsc` under `CLIENT_TSCONFIG`.
 */
export const CLIENT_FLOW = `import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema.js";

interface Answer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  location: string | null;
  body: unknown;
}

const answers: Answer[] = [];
let token = "";

const recorder: Middleware = {
  onRequest({ request }) {
    if (token !== "") request.headers.set("Authorization", \`Bearer \${token}\`);
    return request;
  },
  async onResponse({ request, response, schemaPath }) {
    const text = await response.clone().text();
    answers.push({
      method: request.method,
      path: schemaPath,
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      location: response.headers.get("location"),
      body: text === "" ? null : JSON.parse(text),
    });
    return response;
  },
};

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(\`no \${what} in the answer\`);
  return value;
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

const api = createClient<paths>({ baseUrl: process.argv[2] ?? "" });
api.use(recorder);

const email = \`ada-\${Date.now()}@example.com\`;
const password = "a long enough passphrase";
const account = need((await api.POST("/user", { body: { email, password } })).data, "account");
const wrong = await api.POST("/tokens", { body: { email, password: "not the passphrase" } });
expect(wrong.response.status === 401 && wrong.error !== undefined, "a wrong password is a 401");
token = need((await api.POST("/tokens", { body: { email, password } })).data, "token").token;
const me = need((await api.GET("/user")).data, "user");
expect(me.id === account.id && me.email === email, "GET /user is the new account");

const gadget = need(
  (await api.POST("/gadgets", { body: { name: "Hub", count: 3, released_on: "2024-05-01" } }))
    .data,
  "gadget",
);
const gadgetPath = { path: { gadget_id: gadget.id } };
// A partial update: only the name is sent; the count and the rest keep their values.
const renamed = need(
  (await api.PUT("/gadgets/{gadget_id}", { params: gadgetPath, body: { name: "Renamed hub" } }))
    .data,
  "updated gadget",
);
expect(renamed.name === "Renamed hub" && renamed.count === 3, "PUT merged the fields sent");
const part = need(
  (await api.POST("/gadgets/{gadget_id}/parts", { params: gadgetPath, body: { label: "Screw" } }))
    .data,
  "part",
);
const parts = need(
  (
    await api.GET("/gadgets/{gadget_id}/parts", {
      params: { path: { gadget_id: gadget.id }, query: { per_page: 5 } },
    })
  ).data,
  "parts",
);
expect(parts.length === 1 && parts[0]?.label === "Screw", "the part is listed");
await api.DELETE("/gadgets/{gadget_id}/parts/{part_id}", {
  params: { path: { gadget_id: gadget.id, part_id: part.id } },
});
await api.DELETE("/gadgets/{gadget_id}", { params: gadgetPath });
await api.DELETE("/tokens/current");
const revoked = await api.GET("/user");
expect(revoked.response.status === 401, "a revoked token is refused");

console.log(JSON.stringify(answers));
`;

/** Strict TypeScript, as a careful client project has it. */
export const CLIENT_TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    skipLibCheck: true,
    types: ["node"],
  },
  files: ["flow.ts", "schema.d.ts"],
};
