/**
 * The parts of a new app's `Dockerfile` that depend on its database and kind: where the data
 * lives (a volume for SQLite, DATABASE_URL for a server) and the `docker run` line to start it,
 * with its uploads on a volume (`storage/`, unless `STORAGE_URL` names a bucket).
 * @module
 */

import { YOUNG_GENERATION_FLAG } from "../start/young-generation.js";

/** What `wisent new` was asked, as far as the Dockerfile cares. */
export interface DockerAppKind {
  readonly packageName: string;
  /** A JSON API has no session, so it needs no SESSION_SECRET. */
  readonly api: boolean;
  readonly db: "sqlite" | "postgres" | "mysql";
}

const SERVER_URLS = {
  postgres: "postgres://user:password@db-host:5432/name",
  mysql: "mysql://user:password@db-host:3306/name",
} as const;

/**
 * The `it.dockerDatabase`, `it.dockerRun` and `it.nodeOptions` values of `Dockerfile.eta`.
 * @example dockerVars({ packageName: "shop", api: false, db: "sqlite" }).dockerRun
 * // "docker run -p 3000:3000 -v shop-db:/app/db -v shop-storage:/app/storage -e SESSION_SECRET=<64 hex characters> shop"
 */
export function dockerVars(app: DockerAppKind): {
  dockerDatabase: string;
  dockerRun: string;
  nodeOptions: string;
} {
  const nodeOptions = YOUNG_GENERATION_FLAG;
  const secret = app.api ? "" : " -e SESSION_SECRET=<64 hex characters>";
  const storage = `-v ${app.packageName}-storage:/app/storage`;
  if (app.db === "sqlite") {
    return {
      dockerDatabase: [
        "# SQLite: the database is db/production.sqlite, so db/ must be a writable volume that",
        "# outlives the container (docker run -v <name>:/app/db); the node user owns it.",
        "VOLUME /app/db",
      ].join("\n"),
      dockerRun: `docker run -p 3000:3000 -v ${app.packageName}-db:/app/db ${storage}${secret} ${app.packageName}`,
      nodeOptions,
    };
  }
  const url = SERVER_URLS[app.db];
  return {
    dockerDatabase:
      "# The database is on its own server: DATABASE_URL, given to docker run (see above).",
    dockerRun: `docker run -p 3000:3000 ${storage} -e DATABASE_URL=${url}${secret} ${app.packageName}`,
    nodeOptions,
  };
}
