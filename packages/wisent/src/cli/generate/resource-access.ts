import { UsageError } from "./usage-error.js";

/**
 * Who may use a generated resource: `owned` (signed-in users, each their own records: a `user_id`
 * column and `ownedBy: "user_id"`), `shared` (signed-in users, every record: `authenticate:
 * true`) or `public` (anyone, as before `wisent g auth`).
 */
export type ResourceAccess = "owned" | "shared" | "public";

/** The owner column of an owned resource and what it points to (made by `wisent g auth`). */
export const OWNER = {
  foreignKey: "user_id",
  table: "users",
  model: "User",
  modelPath: "src/models/user.ts",
} as const;

/** What decides a resource's access: the flags, and what the resource can be. */
export interface AccessRequest {
  readonly shared?: boolean | undefined;
  readonly public?: boolean | undefined;
  /** The resource has a model of its own, which can get an owner column. */
  readonly ownModel: boolean;
}

/**
 * The access of a new resource, given whether `wisent g auth` ran in the app (its record is in
 * `.wisent/generated.json`). After `wisent g auth`: owned by default (Phoenix 1.8's scopes;
 * shared when it has no model of its own to hold an owner, `--singular`, `--skip-model` or a
 * reused model), `--shared` or `--public` to say otherwise. Without authentication: public, and
 * `--shared` is refused (nobody could sign in).
 */
export function resourceAccess(authentication: boolean, request: AccessRequest): ResourceAccess {
  if (request.shared && request.public) {
    throw new UsageError("--shared and --public contradict each other: give one");
  }
  if (request.public) return "public";
  if (!authentication) {
    if (request.shared) {
      throw new UsageError(
        "--shared makes a resource for signed-in users, and this app has no sign-in: run wisent generate authentication first",
      );
    }
    return "public";
  }
  if (request.shared || !request.ownModel) return "shared";
  return "owned";
}
