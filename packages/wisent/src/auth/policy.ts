import type { Context } from "hono";
import { HttpError } from "../base/http-error.js";
import { ROUTE_POLICY_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import type { ResourcePolicy } from "../resources/policy.js";
import type { CurrentUser } from "./current-user.js";
import { authenticationRequired } from "./require-authentication.js";

/**
 * A rule of a policy: may `user` do the action to `record`? (List, New and Create have no record.)
 * The user is always signed in: a request without one never reaches a rule (401).
 */
// biome-ignore lint/suspicious/noExplicitAny: each rule names its own record type
export type Rule<Rec = any> = (user: CurrentUser, record: Rec) => boolean | Promise<boolean>;

/** The record type a policy's rule takes. */
type RecordOf<R> = R extends (user: CurrentUser, record: infer Rec) => unknown ? Rec : never;

/** A policy: named rules, checked by `app.resource(..., { policy })` and by `authorize`. */
export interface Policy<Rules extends Readonly<Record<string, Rule>>> extends ResourcePolicy {
  readonly rules: Rules;
  /**
   * Whether the rule `action` lets the request's user do it (false without a user).
   * @param c - the request's context
   * @param action - the rule's name
   * @param record - the record the rule judges (none for `list`, `new`, `create`)
   * @returns the rule's answer
   * @throws WisentError `E_APP_MISCONFIGURED` when the policy has no such rule
   */
  allows<A extends keyof Rules & string>(
    c: Context,
    action: A,
    record: RecordOf<Rules[A]>,
  ): Promise<boolean>;
  /**
   * As {@link authorize}, typed by this policy's rules, on any route.
   * @param c - the request's context
   * @param action - the rule's name
   * @param record - the record the rule judges
   * @throws HttpError 401 (`E_HTTP`) without a signed-in user
   * @throws HttpError 403 (`E_HTTP`) when the rule says no
   * @throws WisentError `E_APP_MISCONFIGURED` when the policy has no such rule
   */
  authorize<A extends keyof Rules & string>(
    c: Context,
    action: A,
    record: RecordOf<Rules[A]>,
  ): Promise<void>;
}

/**
 * A policy (Laravel's policies, AdonisJS' Bouncer): the rules of who may do what to a resource's
 * records, beyond ownership: an admin, a record shared with its readers, a locked record. Give it
 * to `app.resource(..., { policy })`, which checks the rule named after each operation before the
 * handler runs (Show, Update, Destroy and member routes with the record; `list` and `create`
 * without; Edit asks `update`, New asks `create`), answering 403 when a rule says no.
 *
 * @example
 * export const notePolicy = definePolicy({
 *   show: (user, note: Note) => note.user_id === user.id || note.shared,
 *   update: (user, note: Note) => note.user_id === user.id || user.admin,
 *   destroy: (user, note: Note) => user.admin,
 * });
 * app.resource("/notes", new NotesResource(), { authenticate: true, policy: notePolicy });
 * // in a handler, for anything else:
 * await notePolicy.authorize(c, "update", note); // 403 unless the rule allows it
 *
 * @param rules - the rules by action name (`show`, `update`, `publish`, ...)
 * @returns the policy, to give to `app.resource` or call `allows`/`authorize` on
 */
export function definePolicy<const Rules extends Readonly<Record<string, Rule>>>(
  rules: Rules,
): Policy<Rules> {
  const allows = async (c: Context, action: string, record: unknown): Promise<boolean> => {
    const rule = rules[action];
    if (!rule) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `the policy has no ${action} rule (it has ${Object.keys(rules).join(", ") || "none"}): add ${action} to its definePolicy({ ... })`,
      );
    }
    const user = c.currentUser();
    return user !== undefined && (await rule(user, record));
  };
  return {
    rules,
    allows,
    async authorize(c, action, record) {
      if (c.currentUser() === undefined) throw authenticationRequired();
      if (!(await allows(c, action, record))) throw forbidden(action);
    },
  };
}

/**
 * The 403 of a rule that says no.
 * @param action - the action refused
 * @returns an HttpError 403 (`E_HTTP`) `not allowed to <action> this record`, to throw
 */
export function forbidden(action: string): HttpError {
  return new HttpError(403, `not allowed to ${action} this record`);
}

const POLICY: typeof ROUTE_POLICY_KEY = ROUTE_POLICY_KEY;
type Marked = Context & { [POLICY]?: ResourcePolicy };

/** Records the policy of the request's resource (the framework does, for `authorize`). */
export function setRoutePolicy(c: Context, policy: ResourcePolicy): void {
  (c as Marked)[POLICY] = policy;
}

/** Runs one rule of a policy as `app.resource`'s `policy` option holds it: 401, 403 or through. */
export async function checkRule(
  c: Context,
  policy: ResourcePolicy,
  action: string,
  record: unknown,
): Promise<void> {
  const rule = policy.rules[action] as Rule | undefined;
  if (!rule)
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `the policy has no ${action} rule: add ${action} to its definePolicy({ ... })`,
    );
  const user = c.currentUser();
  if (user === undefined) throw authenticationRequired();
  if (!(await rule(user, record))) throw forbidden(action);
}

/**
 * Checks the rule `action` of the request's resource's policy (`app.resource(..., { policy })`)
 * for `record`: 403 when it says no, 401 without a signed-in user. For checks the routes do not
 * make themselves (a field only an admin may change, an action of another resource).
 *
 * @param c - the request's context
 * @param action - the rule's name
 * @param record - the record the rule judges
 * @throws HttpError 401 (`E_HTTP`) without a signed-in user
 * @throws HttpError 403 (`E_HTTP`) when the rule says no
 * @throws WisentError `E_APP_MISCONFIGURED` when the route's resource has no policy, or its
 *   policy no such rule
 * @example
 * const note = await Note.find(tx, c.req.param("note_id"));
 * await authorize(c, "publish", note);
 */
export async function authorize(c: Context, action: string, record?: unknown): Promise<void> {
  const policy = (c as Marked)[POLICY];
  if (!policy) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `authorize(c, "${action}"): this route's resource has no policy: declare it with app.resource(path, resource, { policy })`,
    );
  }
  await checkRule(c, policy, action, record);
}
