import type { Kysely } from "kysely";
import type { AnyDB } from "./any-db.js";

/** Where a model runs its queries: the request's transaction (`await c.tx()`) or a Kysely instance. */
export type Queryable = Kysely<AnyDB>;
