/**
 * What `app.resource(..., { policy })` takes: rules by action name. `definePolicy` (in
 * `src/auth/policy.ts`) makes one with the app's user and record types; this is its shape as the
 * route declaration sees it.
 */

/** One rule: may this user do the action (to this record, for the operations on one record)? */
// `never` parameters: a rule typed for the app's User and Note is still a PolicyRule.
export type PolicyRule = (user: never, record: never) => boolean | Promise<boolean>;

/** A policy as `app.resource` holds it. */
export interface ResourcePolicy {
  /** The rules by action: `show`, `update`, `destroy`, a declared member action, ... */
  readonly rules: Readonly<Record<string, PolicyRule | undefined>>;
}
