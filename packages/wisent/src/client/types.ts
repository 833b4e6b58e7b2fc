import type { z } from "zod";
import type { ModelColumns } from "../data/model.js";
import type { PaginationJson } from "../data/pagination.js";
import type { StoredAttachment } from "../storage/stored-attachment.js";
import type { ResourceSpec } from "./resource-spec.js";

/** A stored file as JSON answers carry it (`StoredAttachment.toJSON`). */
export interface StoredFileJson {
  url: string;
  name: string;
  type: string;
  size: number;
  checksum: string;
}

/** A value as JSON carries it: dates become ISO 8601 text, stored files their URL and facts. */
export type Jsonify<T> = T extends Date
  ? string
  : T extends StoredAttachment
    ? StoredFileJson
    : T extends readonly (infer U)[]
      ? Jsonify<U>[]
      : T extends object
        ? { [K in keyof T]: Jsonify<T[K]> }
        : T;

/**
 * A value a body may carry: a Date is sent as ISO 8601 text; an attachment is a `Blob` or `File`
 * (the body then goes as multipart/form-data).
 */
type JsonInput<T> = T extends Date
  ? Date | string
  : T extends StoredAttachment
    ? Blob
    : T extends readonly StoredAttachment[]
      ? Blob[]
      : T;

/** A record as the JSON API answers it: the model's fields plus id and timestamps. */
export type RecordJson<S> = S extends z.ZodObject ? Jsonify<ModelColumns & z.output<S>> : unknown;

/**
 * A create body: the model's input fields (optional where validation lets them be left out),
 * typed as the validated values, less the fields the path gives.
 */
export type CreateBody<S, Omitted extends string> = S extends z.ZodObject
  ? {
      [K in keyof z.input<S> as K extends Omitted ? never : K]: K extends keyof z.output<S>
        ? JsonInput<z.output<S>[K]>
        : z.input<S>[K];
    }
  : Record<string, unknown>;

/** An update body: any part of the create body. */
export type UpdateBody<S, Omitted extends string> = Partial<CreateBody<S, Omitted>>;

/** Path parameters by name. */
export type PathValues<N extends string> = { readonly [P in N]: string | number };

/**
 * The list's query: the page and its size, or a cursor (`after`/`before`, from a list answer's
 * `cursors`), and any other filter the action reads.
 */
export interface PageQuery {
  /** The page, from 1; `null` (a cursor page's or an uncounted list's `total_pages`): the first. */
  readonly page?: number | null;
  readonly per_page?: number;
  /** The records after this cursor (`cursors.next` of the previous answer); `""`: from the start. */
  readonly after?: string;
  /** The records before this cursor (`cursors.prev`); `""`: the list's last page. */
  readonly before?: string;
  readonly [other: string]: string | number | boolean | null | undefined;
}

/**
 * The paginator of a list answer (its `X-Pagination` header): the server's own type. Totals are
 * the database's estimate when `total_entries_estimated` (null when it has none); a page read by
 * cursor has null page, offset and totals.
 */
export type Pagination = PaginationJson;

/** The cursors of a list answer's `rel="next"` and `rel="prev"` Links, for `after`/`before`. */
export interface PageCursors {
  readonly next?: string;
  readonly prev?: string;
}

/** A 2xx answer. */
export interface Success<T> {
  readonly ok: true;
  readonly status: number;
  readonly data: T;
  readonly response: Response;
}

/** A list's 2xx answer: the page's records and its pagination. */
export interface PageSuccess<T> extends Success<T[]> {
  readonly pagination: Pagination | undefined;
  /** Where to walk on by cursor: `list({ after: cursors.next })`. */
  readonly cursors: PageCursors;
}

/** Statuses of the `{"error","code"}` answers the app may give (see the OpenAPI document). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 429 | 500 | 503;

/** Any error answer but a 422: its status and message. */
export interface HttpFailure {
  readonly ok: false;
  readonly status: ErrorStatus;
  readonly error: string;
  readonly response: Response;
}

/** A 422: the messages of each invalid field. */
export interface ValidationFailure<Field extends PropertyKey = string> {
  readonly ok: false;
  readonly status: 422;
  readonly errors: { readonly [F in Field]?: string[] } & Readonly<Record<string, string[]>>;
  readonly response: Response;
}

/** What a read answers: the data, or an error. */
export type ReadResult<T> = Success<T> | HttpFailure;
/** What a write answers: the record, its validation errors, or another error. */
export type WriteResult<T, Field extends PropertyKey> =
  | Success<T>
  | ValidationFailure<Field>
  | HttpFailure;

type NoParent<S extends ResourceSpec> = [S["parent"]] extends [never] ? true : false;
type Rec<S extends ResourceSpec> = RecordJson<S["schema"]>;
type Create<S extends ResourceSpec> = CreateBody<S["schema"], S["parent"] | S["key"] | S["owner"]>;
type Update<S extends ResourceSpec> = UpdateBody<S["schema"], S["parent"] | S["key"] | S["owner"]>;
type Member<S extends ResourceSpec> = PathValues<S["parent"] | S["key"]>;

/** The operations of one resource, named by action. */
export interface ResourceClient<S extends ResourceSpec> {
  /**
   * GET the collection: one page of records (`page` or `after`/`before`, and `per_page`).
   * @param args - the query (and the parent's path parameters of a nested resource)
   * @returns the page's records with its pagination and cursors, or the error answer
   */
  list(
    ...args: NoParent<S> extends true
      ? [query?: PageQuery]
      : [params: PathValues<S["parent"]> & PageQuery]
  ): Promise<PageSuccess<Rec<S>> | HttpFailure>;
  /**
   * GET one record.
   * @param params - the record's path parameters (`{ widget_id }`)
   * @returns the record, or the error answer (404)
   */
  show(params: Member<S>): Promise<ReadResult<Rec<S>>>;
  /**
   * POST a new record: 201 with it, or 422 with the errors.
   * @param args - the record's fields (after the parent's path parameters of a nested resource)
   * @returns the stored record, or the errors by field, or another error answer
   */
  create(
    ...args: NoParent<S> extends true
      ? [body: Create<S>]
      : [params: PathValues<S["parent"]>, body: Create<S>]
  ): Promise<WriteResult<Rec<S>, keyof Create<S>>>;
  /**
   * PUT changes to a record: 200 with it, or 422 with the errors.
   * @param params - the record's path parameters
   * @param body - the fields to change
   * @returns the updated record, or the errors by field, or another error answer
   */
  update(params: Member<S>, body: Update<S>): Promise<WriteResult<Rec<S>, keyof Create<S>>>;
  /**
   * DELETE a record: 200 with it as it was.
   * @param params - the record's path parameters
   * @returns the deleted record, or the error answer (409 when rows point to it)
   */
  destroy(params: Member<S>): Promise<ReadResult<Rec<S>>>;
  /**
   * Follows the changes of a live resource (`live: true`) as they commit: each create, update
   * and destroy, until the loop stops (`break`) or the server ends the stream.
   * @param args - as for {@link ResourceClient.list} (the parent's path parameters when nested)
   * @returns the changes, in order
   * @throws WisentError `E_CLIENT_REQUEST` (the loop rejects) when the resource is not live or the stream is refused
   *   (401 signed out on a protected resource)
   * @example
   * for await (const change of api.widgets.live()) {
   *   if (change.type === "destroyed") console.log("gone", change.id);
   *   else console.log(change.type, change.record.title);
   * }
   */
  live(
    ...args: NoParent<S> extends true ? [] : [params: PathValues<S["parent"]>]
  ): AsyncIterable<LiveChange<Rec<S>>>;
}

/** One committed change of a live resource, as `live()` yields it. */
export type LiveChange<R> =
  | { readonly type: "created" | "updated"; readonly record: R }
  | { readonly type: "destroyed"; readonly id: string };

/** A declared action's answer: whatever JSON the action gives, its 422, or another error. */
export type ActionResult = Success<unknown> | ValidationFailure | HttpFailure;

/** A request body for a declared action: any JSON object. */
export type ActionBody = Readonly<Record<string, unknown>>;

/** A GET action's query: any filter the action reads. */
export type ActionQuery = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The declared member and collection actions of one resource (`member: { publish: "post" }`):
 * `api.posts.publish({ post_id }, body?)`, `api.posts.search({ q })`. A GET action takes its
 * path parameters and query in one object; any other method its path parameters (when it has
 * any), then the body.
 */
export type ActionClient<S extends ResourceSpec> = {
  readonly [A in S["member"]]: (
    params: Member<S> & ActionQuery,
    body?: ActionBody,
  ) => Promise<ActionResult>;
} & {
  readonly [A in S["collection"]]: (
    ...args: NoParent<S> extends true
      ? [queryOrBody?: ActionQuery | ActionBody]
      : [params: PathValues<S["parent"]> & ActionQuery, body?: ActionBody]
  ) => Promise<ActionResult>;
};

type SpecOf<V> = V extends { readonly "~resource": infer S extends ResourceSpec } ? S : never;

/**
 * The client of an app module: one {@link ResourceClient} per exported resource group, named by
 * its route name's stem (`widgets`, `widgetImages`). Anything else the module exports is ignored.
 */
export type Client<M> = {
  readonly [K in keyof M as [SpecOf<M[K]>] extends [never]
    ? never
    : SpecOf<M[K]>["stem"]]: ResourceClient<SpecOf<M[K]>> & ActionClient<SpecOf<M[K]>>;
};
