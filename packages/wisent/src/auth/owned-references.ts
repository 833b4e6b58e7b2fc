import { WisentError } from "../base/wisent-error.js";
import type { CheckedReference } from "../data/model.js";
import type { RouteRecord } from "../routes/route-registry.js";

/** What the check reads of a resource's model: its table and the references it checks. */
interface ModelReferences {
  readonly name: string;
  readonly table?: unknown;
  readonly references?: Readonly<Record<string, CheckedReference>>;
}

/** One owned resource's model, with its owner column and a route of it (where it was declared). */
interface OwnedModel {
  readonly model: ModelReferences;
  readonly ownedBy: string;
  readonly record: RouteRecord;
}

/** The models of the resources declared with `ownedBy`, once each. */
function ownedModels(records: readonly RouteRecord[]): OwnedModel[] {
  const seen = new Map<unknown, OwnedModel>();
  for (const record of records) {
    const model = record.resource?.model as ModelReferences | undefined;
    if (record.ownedBy === undefined || !model || typeof model.table !== "string") continue;
    if (!seen.has(model)) {
      seen.set(model, { model, ownedBy: record.ownedBy, record });
    }
  }
  return [...seen.values()];
}

/**
 * Throws when the model of a resource declared with `ownedBy` checks a reference to the table of
 * another owned resource (same owner column) without `ownedBy`: its create and update would take
 * the id of another user's record (a task in someone else's project), which then shows in the
 * user's pages and keeps its owner from deleting it. `App.checkRoutes` calls it, so such an app
 * does not start; the message names the reference to write.
 *
 * @example
 * checkOwnedReferences(registry.records);
 * // Task (src/app.ts:12): references.project_id points to projects, which belong to their user (ownedBy "user_id")...
 */
export function checkOwnedReferences(records: readonly RouteRecord[]): void {
  const owned = ownedModels(records);
  const ownerOf = new Map(owned.map((o) => [o.model.table as string, o.ownedBy]));
  const problems: string[] = [];
  for (const { model, ownedBy, record } of owned) {
    for (const [field, reference] of Object.entries(model.references ?? {})) {
      if (ownerOf.get(reference.table) !== ownedBy || reference.ownedBy === ownedBy) continue;
      // Only now: where a route was declared is read from a stack trace.
      const where = record.declaredAt ? ` (declared at ${record.declaredAt})` : "";
      problems.push(
        `${model.name}${where}: references.${field} points to ${reference.table}, which belong to their user (ownedBy "${ownedBy}"), but does not check the owner, so a user could point a record at another user's: write references: { ${field}: { table: "${reference.table}", ownedBy: "${ownedBy}" } }`,
      );
    }
  }
  if (problems.length > 0) throw new WisentError("E_APP_MISCONFIGURED", problems.join("\n"));
}
