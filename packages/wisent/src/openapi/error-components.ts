import { statusText } from "../http/error-response.js";

/**
 * The shared parts of every Wisent document: the error shapes (`{"error","code","error_code"}`, the 422's
 * `{"errors":{field:[messages]}}`, RFC 9457 problem details), the list's query parameters and
 * its pagination headers. They describe what `errorResponse`, `c.respond` and
 * `paginationHeaders` answer.
 */

/** Error statuses JSON operations can answer, and why (each operation lists those it can give). */
export const ERROR_STATUSES: Record<number, string> = {
  400: "A list's bad cursor, or a `page` past the offset limit of a long list (the message names the parameter to use: `after`)",
  401: "Not signed in (no valid credentials)",
  404: "No such record (or path)",
  405: "The path answers other methods only (`Allow` lists them)",
  406: "The Accept header asks for a format this operation does not answer",
  415: "The body's Content-Type is not JSON, a form or multipart",
  409: "The record is still referenced by other records (a foreign key restricts its deletion): nothing was deleted (`Author has 11 books.`)",
  422: "The body does not pass the model's validation, a unique field's value is taken (`Isbn has already been taken.`) or a referenced record does not exist (`Author must exist.`): errors by field",
  429: "Too many requests (`Retry-After` says when to try again)",
  503: "The database is unavailable (`Retry-After` says when to try again)",
};

export function errorResponseName(status: number): string {
  return statusText(status).replace(/[^A-Za-z]/g, "");
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `components.schemas`, `components.responses`, `components.parameters`, `components.headers`. */
export function sharedComponents(maxPerPage: number, defaultPerPage: number) {
  const responses: Record<string, unknown> = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    const code = Number(status);
    responses[errorResponseName(code)] = {
      description,
      content: {
        "application/json": { schema: ref(code === 422 ? "ValidationErrors" : "Error") },
        "application/problem+json": { schema: ref("Problem") },
      },
    };
  }
  return {
    schemas: {
      Error: {
        type: "object",
        description: "Every error but a 422 (`trace` in development only)",
        properties: {
          error: { type: "string" },
          code: { type: "integer", description: "The HTTP status" },
          error_code: {
            type: "string",
            description:
              "The stable code of the error's kind (`E_ROUTE_NOT_FOUND`, `E_DEPENDENT_RECORDS`, ...: docs/reference/errors.md); absent on a 500",
          },
          trace: { type: "string" },
        },
        required: ["error", "code"],
      },
      ValidationErrors: {
        type: "object",
        description: "A 422: the messages of each invalid field",
        properties: {
          errors: {
            type: "object",
            additionalProperties: { type: "array", items: { type: "string" } },
          },
        },
        required: ["errors"],
      },
      Problem: {
        type: "object",
        description: "RFC 9457 problem details, for `Accept: application/problem+json`",
        properties: {
          type: { type: "string" },
          title: { type: "string" },
          status: { type: "integer" },
          detail: { type: "string" },
          errors: {
            type: "object",
            additionalProperties: { type: "array", items: { type: "string" } },
          },
        },
        required: ["type", "title", "status"],
      },
    },
    responses,
    parameters: {
      page: {
        name: "page",
        in: "query",
        required: false,
        description:
          "The page, from 1. On a list longer than the count limit, a page whose offset is past the offset limit (10,000 rows by default) answers 400: walk on with `after`",
        schema: { type: "integer", minimum: 1, default: 1 },
      },
      after: {
        name: "after",
        in: "query",
        required: false,
        description:
          'The records after this opaque cursor, in the list\'s order (keyset pagination): take it from a `rel="next"` Link; empty for the first page. Not with `page` or `before`',
        schema: { type: "string" },
      },
      before: {
        name: "before",
        in: "query",
        required: false,
        description:
          'The records before this opaque cursor: take it from a `rel="prev"` Link; empty for the last page. Not with `page` or `after`',
        schema: { type: "string" },
      },
      per_page: {
        name: "per_page",
        in: "query",
        required: false,
        description: `Records per page (at most ${maxPerPage})`,
        schema: { type: "integer", minimum: 1, maximum: maxPerPage, default: defaultPerPage },
      },
    },
    headers: {
      Link: {
        description:
          'RFC 8288 links to the first, prev, next and last pages (`rel="next"`); by cursor (`after=`, `before=`) on a list past the count limit and on a page read by cursor',
        schema: { type: "string" },
      },
      "X-Total-Count": {
        description:
          "How many records all pages hold: the database's estimate on a list past the count limit (absent when it has none, or on a page read by cursor)",
        schema: { type: "integer" },
      },
      "X-Pagination": {
        description:
          'The paginator as JSON (page, per_page, offset, total_entries_size, current_entries_size, total_pages); `"total_entries_estimated": true` when the total is the database\'s estimate, and `null` page, offset and totals on a page read by cursor',
        schema: { type: "string" },
      },
      ETag: {
        description: "A weak validator of the body: send it back as If-None-Match to get a 304",
        schema: { type: "string" },
      },
      Location: {
        description: "The path of what was created",
        schema: { type: "string" },
      },
    },
  };
}
