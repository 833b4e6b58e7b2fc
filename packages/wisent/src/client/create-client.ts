import { WisentError } from "../base/wisent-error.js";
import { liveChanges } from "./live-changes.js";
import type { Client, LiveChange, PageCursors, Pagination } from "./types.js";

/** Answers a Request: `app.fetch`, or the global `fetch`. */
export type FetchFn = (request: Request) => Response | Promise<Response>;

/** The parts of an OpenAPI document the client reads (what `app.openApiDocument()` returns). */
export interface OperationsDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The app's URL: `http://127.0.0.1:3000`; default `http://localhost` (with `fetch: app.fetch`). */
  readonly baseUrl?: string;
  /** Who answers: `app.fetch` in tests (no socket); default the global `fetch`. */
  readonly fetch?: FetchFn;
  /** The app's OpenAPI document; default: fetched once from {@link ClientOptions.openapiPath}. */
  readonly document?: OperationsDocument;
  /** Where the app serves its document (`app.openapi(...)`); default `/openapi.json`. */
  readonly openapiPath?: string;
  /** Headers sent with every request (e.g. `Accept-Language`). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * An access token (from `POST /tokens` in an app made with `wisent g auth --api`), sent as
   * `Authorization: Bearer <token>` with every request.
   */
  readonly token?: string;
}

interface OperationRoute {
  readonly method: string;
  readonly path: string;
  /** A declared member or collection action (`publish`), not one of the five. */
  readonly declared: boolean;
}

type Operations = Map<string, OperationRoute>;

/** Resource operations of the document, by `stem.action` (its `x-wisent-*` members). */
function operationsOf(document: OperationsDocument): Operations {
  const operations: Operations = new Map();
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      const op = operation as Record<string, unknown>;
      const stem = op["x-wisent-resource"];
      const action = op["x-wisent-action"];
      if (typeof stem === "string" && typeof action === "string") {
        const declared = op["x-wisent-declared"] !== undefined;
        operations.set(`${stem}.${action}`, { method: method.toUpperCase(), path, declared });
      }
    }
  }
  return operations;
}

/** `/widgets/{widget_id}` with `{ widget_id: 1 }` -> `/widgets/1`; the rest of `params` is left. */
function fillPath(
  path: string,
  params: Record<string, unknown>,
  what: string,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...params };
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = rest[name];
    if (value === undefined || value === null || value === "") {
      throw new WisentError("E_INVALID_ARGUMENT", `${what}: missing path parameter "${name}"`);
    }
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  return { path: filled, rest };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function paginationOf(response: Response): Pagination | undefined {
  const header = response.headers.get("x-pagination");
  if (!header) return undefined;
  try {
    return JSON.parse(header) as Pagination;
  } catch {
    return undefined;
  }
}

/**
 * The `after`/`before` cursors of the `Link` header's `rel="next"` and `rel="prev"` targets (a
 * list past the count limit, or a page read by cursor, links them by cursor).
 */
function cursorsOf(response: Response): PageCursors {
  const header = response.headers.get("link");
  const cursors: { next?: string; prev?: string } = {};
  if (!header) return cursors;
  for (const match of header.matchAll(/<([^>]*)>\s*;\s*rel="(next|prev)"/g)) {
    const query = new URL(match[1]!, "http://link.invalid").searchParams;
    const cursor = query.get(match[2] === "next" ? "after" : "before");
    if (cursor) cursors[match[2] as "next" | "prev"] = cursor;
  }
  return cursors;
}

/**
 * A typed client of a Wisent app's JSON API, with no code generation: its types come from the
 * app module's resource declarations and models, its routes from the app's OpenAPI document.
 * Operations are `api.<resource>.<action>(...)`; each resolves to `{ ok: true, data }`, a 422's
 * `{ ok: false, status: 422, errors }` or another error's `{ ok: false, status, error }` (it
 * rejects only when the app cannot be reached or a path parameter is missing).
 *
 * @param target - the app's base URL, or options: `baseUrl`, a `fetch` of your own (an app's
 *   in-process `fetch`), default `headers`, a bearer `token`, the OpenAPI `document` or its path
 * @returns the client; the OpenAPI document is read on the first call (and again after a
 *   failed read)
 * @throws WisentError `E_CLIENT_REQUEST` (the call rejects) when the OpenAPI document cannot be
 *   read or does not list the operation; Error of `fetch` when the app cannot be reached
 * @throws WisentError `E_INVALID_ARGUMENT` (the call rejects) for a missing path parameter
 * @example
 * import { createClient } from "wisent/client";
 * const api = createClient<typeof import("./app.js")>("http://127.0.0.1:3000");
 * const created = await api.widgets.create({ title: "Lamp" });
 * if (created.ok) console.log(created.data.id);
 * else if (created.status === 422) console.log(created.errors.title);
 *
 * // In tests, in-process: createClient<typeof import("../app.js")>({ fetch: app.fetch })
 */
export function createClient<M>(target: string | ClientOptions): Client<M> {
  const options: ClientOptions = typeof target === "string" ? { baseUrl: target } : target;
  const base = (options.baseUrl ?? "http://localhost").replace(/\/+$/, "");
  const send: FetchFn = options.fetch ?? ((request) => fetch(request));
  const headers = {
    ...options.headers,
    ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
  };
  let operations: Promise<Operations> | undefined = options.document
    ? Promise.resolve(operationsOf(options.document))
    : undefined;
  const loadOperations = (): Promise<Operations> => {
    operations ??= (async () => {
      const url = `${base}${options.openapiPath ?? "/openapi.json"}`;
      const response = await send(new Request(url, { headers: { accept: "application/json" } }));
      if (!response.ok) {
        // In production an app serves its document only with app.openapi(path, { production: true }).
        const hint =
          response.status === 404
            ? ` (in production the app serves it only with app.openapi("${options.openapiPath ?? "/openapi.json"}", { production: true }); or pass createClient({ document }), the output of \`wisent openapi\`)`
            : "";
        throw new WisentError(
          "E_CLIENT_REQUEST",
          `could not read the app's OpenAPI document: GET ${url} answered ${response.status}${hint}`,
        );
      }
      return operationsOf((await response.json()) as OperationsDocument);
    })();
    // A failed read is tried again by the next call.
    operations.catch(() => {
      operations = undefined;
    });
    return operations;
  };

  const call = async (stem: string, action: string, args: unknown[]) => {
    const route = (await loadOperations()).get(`${stem}.${action}`);
    if (!route)
      throw new WisentError(
        "E_CLIENT_REQUEST",
        `no operation ${stem}.${action} in the app's OpenAPI document: regenerate the client, or check the app serves that route`,
      );
    const what = `${stem}.${action}`;
    // A read (list, a GET action) takes its path parameters and query in one object; a write
    // its path parameters (when the path has any), then the body.
    const read = action === "list" || (route.declared && route.method === "GET");
    const takesParams = route.path.includes("{") || read;
    const params = (takesParams ? args[0] : undefined) as Record<string, unknown> | undefined;
    const writes = action === "create" || action === "update" || (route.declared && !read);
    const body = writes ? args[takesParams ? 1 : 0] : undefined;
    const { path, rest } = fillPath(route.path, params ?? {}, what);
    const query = new URLSearchParams();
    if (read) {
      for (const [key, value] of Object.entries(rest)) {
        if (value !== undefined && value !== null) query.set(key, String(value));
      }
    }
    const search = query.size > 0 ? `?${query}` : "";
    // A body holding a File or Blob (an attachment) goes as multipart/form-data, whose
    // Content-Type (with its boundary) the Fetch API sets.
    const files = body !== undefined && holdsFiles(body);
    const init: RequestInit = {
      method: route.method,
      headers: {
        accept: "application/json",
        // On every write, a DELETE too: a JSON request is an API call, not a form to forge.
        ...(route.method !== "GET" && !files && { "content-type": "application/json" }),
        ...headers,
      },
      ...(body !== undefined && {
        body: files ? multipartBody(body as Record<string, unknown>) : JSON.stringify(body),
      }),
    };
    const response = await send(new Request(`${base}${path}${search}`, init));
    const json = await readJson(response);
    if (response.ok) {
      return action === "list"
        ? {
            ok: true,
            status: response.status,
            data: json,
            pagination: paginationOf(response),
            cursors: cursorsOf(response),
            response,
          }
        : { ok: true, status: response.status, data: json, response };
    }
    if (response.status === 422) {
      const errors = (json as { errors?: unknown } | undefined)?.errors ?? {};
      return { ok: false, status: 422, errors, response };
    }
    const message = (json as { error?: unknown; detail?: unknown } | undefined) ?? {};
    const error =
      typeof message.error === "string"
        ? message.error
        : typeof message.detail === "string"
          ? message.detail
          : response.statusText || `HTTP ${response.status}`;
    return { ok: false, status: response.status, error, response };
  };

  /** `live()`: the List's stream header, then the stream's named events. */
  async function* follow(stem: string, args: unknown[]): AsyncGenerator<LiveChange<unknown>> {
    const listed = (await call(stem, "list", args)) as { ok: boolean; response: Response };
    const path = listed.response.headers.get("x-live-stream");
    if (!listed.ok || !path) {
      throw new WisentError(
        "E_CLIENT_REQUEST",
        listed.ok
          ? `${stem}.live(): the resource is not live (declare it with live: true)`
          : `${stem}.live(): the list answered ${listed.response.status}`,
      );
    }
    const response = await send(
      new Request(`${base}${path}`, { headers: { accept: "text/event-stream", ...headers } }),
    );
    if (!response.ok || !response.body) {
      throw new WisentError(
        "E_CLIENT_REQUEST",
        `${stem}.live(): the stream answered ${response.status}`,
      );
    }
    yield* liveChanges(response.body);
  }

  const resources = new Map<string, object>();
  return new Proxy(
    {},
    {
      get(_, stem) {
        if (typeof stem !== "string" || stem === "then") return undefined;
        let resource = resources.get(stem);
        if (!resource) {
          resource = new Proxy(
            {},
            {
              get(_, action) {
                if (typeof action !== "string" || action === "then") return undefined;
                if (action === "live") return (...args: unknown[]) => follow(stem, args);
                return (...args: unknown[]) => call(stem, action, args);
              },
            },
          );
          resources.set(stem, resource);
        }
        return resource;
      },
    },
  ) as Client<M>;
}

/** Whether a body has a File or Blob at its top level (a list of them too). */
function holdsFiles(body: unknown): boolean {
  if (body === null || typeof body !== "object") return false;
  return Object.values(body).some(
    (value) =>
      value instanceof Blob || (Array.isArray(value) && value.some((item) => item instanceof Blob)),
  );
}

/**
 * A body with files as multipart/form-data: files as file parts, lists as repeated fields, text
 * as itself, anything else (numbers, booleans, objects) as its JSON text, which the models read.
 */
function multipartBody(body: Record<string, unknown>): FormData {
  const form = new FormData();
  const add = (name: string, value: unknown) => {
    if (value === undefined) return;
    if (value instanceof Blob) form.append(name, value);
    else if (typeof value === "string") form.append(name, value);
    else if (value === null) form.append(name, "");
    else if (typeof value === "object" && !(value instanceof Date)) {
      form.append(name, JSON.stringify(value));
    } else form.append(name, value instanceof Date ? value.toISOString() : String(value));
  };
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.some((item) => item instanceof Blob)) {
      for (const item of value) add(name, item);
    } else add(name, value);
  }
  return form;
}
