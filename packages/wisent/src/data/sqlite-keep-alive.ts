/**
 * Keeps every better-sqlite3 object the framework makes (databases, prepared statements)
 * reachable until the process exits, so that the garbage collector never finalizes one.
 *
 * Why: addons built against Node 24's `node_object_wrap.h` register an environment cleanup hook
 * per wrapped object and remove it in the object's destructor, looking the environment up from
 * the isolate's current context. A destructor run by a GC that happens outside any context
 * (a GC task, a teardown) finds none and aborts the process: `Assertion failed: (env) !=
 * nullptr` in `node::RemoveEnvironmentCleanupHook`, SIGABRT, from `Database::~Database()` or
 * `Statement::~Statement()` (seen on `wisent migrate`, whose DDL statements are not cached).
 * Objects still alive at exit are deleted by that same cleanup hook, inside the environment,
 * which is safe. The cost is memory: one entry per database opened and per distinct SQL text
 * prepared outside the statement cache (DDL, evictions), bounded in practice by the app's queries.
 * @module
 */

const kept = new Set<object>();

/**
 * Holds `object` (a better-sqlite3 Database or Statement) until the process exits.
 * @example const statement = keepAlive(db.prepare(sql));
 */
export function keepAlive<T extends object>(object: T): T {
  kept.add(object);
  return object;
}
