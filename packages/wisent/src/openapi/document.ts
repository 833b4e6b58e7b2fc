import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "../data/pagination.js";
import { pascalize, sessionCookieName } from "../naming/index.js";
import type { Operation } from "../resources/mapping.js";
import type { AnswerDoc, OperationDoc } from "../resources/operation-doc.js";
import type { ResourceModel } from "../resources/resource.js";
import type { RouteRecord } from "../routes/route-registry.js";
import { ERROR_STATUSES, errorResponseName, sharedComponents } from "./error-components.js";
import { addLiveOperations } from "./live-operations.js";
import {
  createBodySchema,
  type JsonSchema,
  recordJsonSchema,
  takesFiles,
  updateBodySchema,
  zodJsonSchema,
} from "./model-schemas.js";

/** An OpenAPI 3.1 document, as plain JSON. */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: {
    title: string;
    version: string;
    description?: string;
    license?: { name: string; identifier?: string; url?: string };
    contact?: { name?: string; email?: string; url?: string };
  };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

/** What the document says about the app itself. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  /** The server URL: `APP_URL` when set, else the routes table's host. */
  readonly host: string;
  /** The app's license, from its package.json (`license`). */
  readonly license?: { name: string; identifier?: string; url?: string } | undefined;
  /** Who to ask about the API, from its package.json (`author`). */
  readonly contact?: { name?: string; email?: string; url?: string } | undefined;
  /** An API app: its plain routes (`app.get(...)`) answer JSON and are documented too. */
  readonly api: boolean;
}

/** The operations of a resource that answer JSON (New and Edit are HTML forms). */
const JSON_OPERATIONS: ReadonlySet<Operation> = new Set([
  "list",
  "show",
  "create",
  "update",
  "destroy",
]);

/** Which error answers each operation documents (every one: 405, 406, 429 and 503). */
const ERRORS_OF: Record<string, number[]> = {
  list: [400, 404, 405, 406, 429, 503],
  show: [404, 405, 406, 429, 503],
  create: [404, 405, 406, 415, 422, 429, 503],
  update: [404, 405, 406, 415, 422, 429, 503],
  destroy: [404, 405, 406, 429, 503],
  declaredGet: [404, 405, 406, 429, 503],
  declaredWrite: [404, 405, 406, 415, 422, 429, 503],
  plain: [405, 406, 429, 503],
  documented: [405, 429, 503],
  documentedWrite: [405, 415, 429, 503],
};

const SUCCESS: Record<string, [number, string]> = {
  list: [200, "One page of records, oldest first"],
  show: [200, "The record"],
  create: [201, "The created record"],
  update: [200, "The updated record"],
  destroy: [200, "The deleted record, as it was"],
};

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The OpenAPI path of a template: `{id:[0-9]+}` -> `{id}`. */
function openApiPath(record: RouteRecord): string {
  let path = record.path.template;
  for (const param of record.path.params) {
    path = path.replace(
      new RegExp(`\\{${param.name}(:[^}]*(\\{[^}]*\\}[^}]*)*)?\\}`),
      `{${param.name}}`,
    );
  }
  return path;
}

function pathParameters(record: RouteRecord): unknown[] {
  return record.path.params.map((param) => ({
    name: param.name,
    in: "path",
    required: true,
    schema:
      param.pattern === "[^/]+"
        ? { type: "string" }
        : { type: "string", pattern: `^(?:${param.pattern})$` },
  }));
}

/**
 * Component names of one model's schemas: `Widget`, `WidgetInput`, `WidgetUpdate`. The same model
 * under a nested path (its parent's key taken from the path) gets the resource's name instead.
 */
class SchemaNames {
  readonly schemas: Record<string, JsonSchema> = {};

  add(preferred: string, fallback: string, schema: JsonSchema): string {
    for (const name of [preferred, fallback]) {
      const held = this.schemas[name];
      if (held === undefined) {
        this.schemas[name] = schema;
        return name;
      }
      if (JSON.stringify(held) === JSON.stringify(schema)) return name;
    }
    let n = 2;
    while (this.schemas[`${fallback}${n}`] !== undefined) n++;
    this.schemas[`${fallback}${n}`] = schema;
    return `${fallback}${n}`;
  }
}

function errorResponses(kind: string, extra: readonly number[] = []): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of [...ERRORS_OF[kind]!, ...extra].sort((a, b) => a - b)) {
    if (ERROR_STATUSES[status] === undefined) continue;
    responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  }
  return responses;
}

const ANY_JSON = { description: "Any JSON (no model is declared)" };

/**
 * Builds the OpenAPI 3.1 document of an app from its route registry: every resource operation
 * that answers JSON (and, in an API app, every plain route), with the model's schemas converted
 * by zod's own `z.toJSONSchema`.
 *
 * @example
 * openApiDocument(registry.records, { title: "shop", version: "1.0.0", host, api: false });
 */
export function openApiDocument(
  records: readonly RouteRecord[],
  info: OpenApiInfo,
): OpenApiDocument {
  const names = new SchemaNames();
  const referenced = referencedTables(records);
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Map<string, string>();
  const operationIds = new Set<string>();
  const uniqueId = (id: string) => {
    let unique = id;
    for (let n = 2; operationIds.has(unique); n++) unique = `${id}${n}`;
    operationIds.add(unique);
    return unique;
  };

  for (const record of records) {
    if (record.internal) continue;
    const meta = record.resource;
    const op = meta?.operation;
    if (meta ? op !== undefined && !JSON_OPERATIONS.has(op) : !info.api) continue;
    const path = openApiPath(record);
    const base = record.name.replace(/Path$/, "");
    const parameters = pathParameters(record);
    let operation: Record<string, unknown>;
    if (record.doc) {
      if (meta)
        tags.set(meta.stem, `${record.handler.split(".")[0]} (${meta.model?.name ?? "no model"})`);
      const action = meta ? pascalize(meta.action) : pascalize(record.method.toLowerCase());
      operation = {
        operationId: uniqueId(`${base}${action}`),
        summary: record.doc.summary ?? `${action} (${record.handler})`,
        ...(meta && { tags: [meta.stem] }),
        ...documentedOperation(record.doc, record.method, parameters),
      };
      if (meta) {
        operation["x-wisent-resource"] = meta.stem;
        operation["x-wisent-action"] = meta.action;
      }
    } else if (meta && op) {
      tags.set(meta.stem, `${record.handler.split(".")[0]} (${meta.model?.name ?? "no model"})`);
      const action = pascalize(op);
      operation = {
        operationId: uniqueId(`${base}${action}`),
        summary: `${action} (${record.handler})`,
        tags: [meta.stem],
        ...resourceOperation(op, meta.model, names, meta.stem, parameters, record, referenced),
      };
      operation["x-wisent-resource"] = meta.stem;
      operation["x-wisent-action"] = op;
      if (!meta.implemented) operation["x-wisent-not-implemented"] = true;
    } else if (meta?.declared) {
      tags.set(meta.stem, `${record.handler.split(".")[0]} (${meta.model?.name ?? "no model"})`);
      operation = {
        operationId: uniqueId(declaredOperationId(record.name, meta.action)),
        summary: `${pascalize(meta.action)} (${record.handler}), a declared ${meta.declared} route`,
        tags: [meta.stem],
        ...declaredOperation(record.method, parameters),
        "x-wisent-resource": meta.stem,
        "x-wisent-action": meta.action,
        "x-wisent-declared": meta.declared,
      };
    } else {
      operation = {
        operationId: uniqueId(`${base}${pascalize(record.method.toLowerCase())}`),
        summary: record.handler,
        ...(parameters.length > 0 && { parameters }),
        responses: {
          "200": { description: "JSON", content: { "application/json": { schema: {} } } },
          ...errorResponses("plain"),
        },
      };
    }
    // Redocly's security-defined: a public operation says so (`security: []`), a secured one
    // names its scheme.
    if (record.authenticated) secure(operation, info.api);
    else operation.security = [];
    paths[path] ??= {};
    paths[path]![record.method.toLowerCase()] = operation;
    for (const alias of record.aliases) {
      const aliasPath = alias.replace(/\/+$/, "") || "/";
      paths[aliasPath] ??= {};
      paths[aliasPath]![record.method.toLowerCase()] = {
        ...operation,
        operationId: uniqueId(`${operation.operationId as string}Alias`),
      };
    }
  }
  addLiveOperations(paths, records);
  const shared = sharedComponents(MAX_PER_PAGE, DEFAULT_PER_PAGE);
  const secured = records.some((r) => r.authenticated && !r.internal);
  // The 401 answer is a component only where an operation refers to it (Redocly's no-unused-components).
  const { Unauthorized: unauthorized, ...responses } = shared.responses;
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      ...(info.license && { license: info.license }),
      ...(info.contact && { contact: info.contact }),
    },
    servers: [{ url: info.host }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    components: {
      ...shared,
      responses: secured ? { ...responses, Unauthorized: unauthorized } : responses,
      schemas: { ...shared.schemas, ...names.schemas },
      ...(secured && { securitySchemes: securitySchemes(info) }),
    },
  };
}

/** The scheme of secured operations: a bearer token in an API app, else the session cookie. */
const schemeName = (api: boolean) => (api ? "bearerAuth" : "sessionCookie");

function securitySchemes(info: OpenApiInfo): Record<string, unknown> {
  return info.api
    ? {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An access token from POST /tokens: `Authorization: Bearer <token>`",
        },
      }
    : {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: sessionCookieName(info.title),
          description: "The session cookie set by signing in",
        },
      };
}

/** Marks an operation behind `requireAuthentication()`: its scheme, and its 401. */
function secure(operation: Record<string, unknown>, api: boolean): void {
  operation.security = [{ [schemeName(api)]: [] }];
  operation.responses = {
    ...(operation.responses as Record<string, unknown>),
    "401": { $ref: "#/components/responses/Unauthorized" },
  };
}

/** A status's documented error body: the 422's errors by field, else `{"error","code"}`. */
function errorAnswer(status: number, description: string): Record<string, unknown> {
  return {
    description,
    content: {
      "application/json": { schema: schemaRef(status === 422 ? "ValidationErrors" : "Error") },
    },
  };
}

/** What a route says of itself with `documented(...)` or a resource's `docs`. */
function documentedOperation(
  doc: OperationDoc,
  method: string,
  parameters: unknown[],
): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [key, answer] of Object.entries(doc.responses)) {
    const status = Number(key);
    const given: AnswerDoc = typeof answer === "string" ? { description: answer } : answer;
    if (status >= 400 && given.body === undefined) {
      responses[key] = errorAnswer(status, given.description);
      continue;
    }
    const headers: Record<string, unknown> = {};
    for (const [name, description] of Object.entries(given.headers ?? {})) {
      headers[name] = { description, schema: { type: "string" } };
    }
    if (status === 201 && headers.Location === undefined) {
      headers.Location = { $ref: "#/components/headers/Location" };
    }
    responses[key] = {
      description: given.description,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(given.body && {
        content: { "application/json": { schema: zodJsonSchema(given.body, "output") } },
      }),
    };
  }
  const write = method !== "GET" && method !== "HEAD" && method !== "DELETE";
  for (const [key, value] of Object.entries(
    errorResponses(write ? "documentedWrite" : "documented"),
  )) {
    responses[key] ??= value;
  }
  return {
    ...(doc.description && { description: doc.description }),
    ...(parameters.length > 0 && { parameters }),
    ...(doc.body && {
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: zodJsonSchema(doc.body, "input") },
          "application/x-www-form-urlencoded": { schema: zodJsonSchema(doc.body, "input") },
        },
      },
    }),
    responses,
  };
}

/**
 * A declared route's operationId: its route name without the leading action, then the action, as
 * the standard operations are named (`publishPostPath` + publish -> `postPublish`, like `postShow`).
 */
export function declaredOperationId(routeName: string, action: string): string {
  const base = routeName.replace(/Path$/, "");
  const lead = camelLead(action);
  const rest = base.startsWith(lead) && base.length > lead.length ? base.slice(lead.length) : base;
  return `${rest.charAt(0).toLowerCase()}${rest.slice(1)}${pascalize(action)}`;
}

/** `mark_read` -> `markRead`: how a declared action leads its route name. */
function camelLead(action: string): string {
  const pascal = pascalize(action);
  return `${pascal.charAt(0).toLowerCase()}${pascal.slice(1)}`;
}

/**
 * A declared member or collection route: its action decides what it answers, so the answer is
 * any JSON, and a write takes any JSON object (the typed client sends what it is given).
 */
function declaredOperation(method: string, parameters: unknown[]): Record<string, unknown> {
  const write = method !== "GET" && method !== "HEAD";
  const body = { type: "object" };
  return {
    ...(parameters.length > 0 && { parameters }),
    ...(write && {
      requestBody: {
        required: false,
        content: {
          "application/json": { schema: body },
          "application/x-www-form-urlencoded": { schema: body },
        },
      },
    }),
    responses: {
      "200": {
        description: "What the action answers",
        content: { "application/json": { schema: {} } },
      },
      ...errorResponses(write ? "declaredWrite" : "declaredGet"),
    },
  };
}

function resourceOperation(
  operation: Operation,
  model: ResourceModel | undefined,
  names: SchemaNames,
  stem: string,
  parameters: unknown[],
  record: RouteRecord,
  referenced: ReadonlySet<string>,
): Record<string, unknown> {
  const modelName = model ? pascalize(model.name) : undefined;
  const recordSchema =
    model && modelName
      ? schemaRef(names.add(modelName, `${pascalize(stem)}Record`, recordJsonSchema(model)))
      : {};
  const pathNames = record.path.params.map((p) => p.name);
  const [status, description] = SUCCESS[operation]!;
  const content = (schema: unknown) => ({ "application/json": { schema } });
  const result: Record<string, unknown> = {
    parameters:
      operation === "list"
        ? [
            ...parameters,
            { $ref: "#/components/parameters/page" },
            { $ref: "#/components/parameters/per_page" },
            { $ref: "#/components/parameters/after" },
            { $ref: "#/components/parameters/before" },
          ]
        : parameters,
  };
  if (operation === "create" || operation === "update") {
    const bodySchema =
      model && modelName
        ? schemaRef(
            operation === "create"
              ? names.add(
                  `${modelName}Input`,
                  `${pascalize(stem)}Input`,
                  createBodySchema(model, pathNames),
                )
              : names.add(
                  `${modelName}Update`,
                  `${pascalize(stem)}Update`,
                  updateBodySchema(model, pathNames),
                ),
          )
        : { type: "object" };
    result.requestBody = {
      required: operation === "create",
      // Files travel only in multipart bodies.
      content:
        model && takesFiles(model)
          ? { "multipart/form-data": { schema: bodySchema } }
          : {
              "application/json": { schema: bodySchema },
              "application/x-www-form-urlencoded": { schema: bodySchema },
            },
    };
  }
  const success: Record<string, unknown> = {
    description: model ? description : ANY_JSON.description,
    content: content(operation === "list" ? { type: "array", items: recordSchema } : recordSchema),
  };
  if (operation === "list") {
    success.headers = {
      Link: { $ref: "#/components/headers/Link" },
      "X-Total-Count": { $ref: "#/components/headers/X-Total-Count" },
      "X-Pagination": { $ref: "#/components/headers/X-Pagination" },
      ETag: { $ref: "#/components/headers/ETag" },
    };
  } else if (operation === "show") {
    success.headers = { ETag: { $ref: "#/components/headers/ETag" } };
  } else if (operation === "create") {
    success.headers = { Location: { $ref: "#/components/headers/Location" } };
  }
  if (operation === "update") {
    result.description =
      record.method === "PATCH"
        ? "A partial update: the fields sent are validated and stored, the others keep their values."
        : "Merges, as PATCH would: the fields sent are validated and stored, the fields left out keep their stored values (nothing is reset to a default).";
  }
  const responses: Record<string, unknown> = { [String(status)]: success };
  if (operation === "list" || operation === "show") {
    responses["304"] = { description: "Not modified: the ETag sent in If-None-Match still holds" };
  }
  // A destroy answers 409 when rows of another model still point to the record (references
  // restrict deletes by default: t.references(...), DependentRecordsError).
  const conflict =
    operation === "destroy" && model?.table !== undefined && referenced.has(model.table);
  result.responses = { ...responses, ...errorResponses(operation, conflict ? [409] : []) };
  return result;
}

/** The tables some resource's model points to through `references`. */
function referencedTables(records: readonly RouteRecord[]): Set<string> {
  const tables = new Set<string>();
  for (const record of records) {
    for (const { table } of Object.values(record.resource?.model?.references ?? {}))
      tables.add(table);
  }
  return tables;
}
