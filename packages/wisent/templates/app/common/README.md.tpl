# @@title@@

A Wisent @@appKind@@ (TypeScript, Hono, Kysely).

## Getting started

```sh
npm install          # if `wisent new` was run with --skip-install
@@databaseSteps@@
npm run dev          # http://127.0.0.1:3000, restarts when a file changes
```

## Everyday commands

- `npx wisent g r widget title description:nulls.Text`: a resource (model, migration,
  handlers@@templatesNote@@, tests)
- `npx wisent d r widget`: remove it again (asks per file; `-y` for all; rolls its migration
  back first when it has run, unless `--keep-migration`)
- `npm run migrate`, `npx wisent migrate down`, `npx wisent migrate status`: migrations
- `npx wisent g migration add_summary_to_widgets summary:text`: a migration (`remove_x_from_y`,
  `create_y`, or any name for an empty one)
- `npx wisent db create | drop | seed | reset | rollback [--step N]`: the database (`db/seeds.ts`
  holds the seeds)
- `npm run routes`: every route with its name and handler
- `npm test`: the app's tests (Vitest; the test database, `db/test.sqlite` or the `_test` twin
  of `.env`'s `DATABASE_URL`, is created and migrated before each run)
- `npm run typecheck`, `npm run lint`: TypeScript and Biome
- `npm start`: run without watching (`--workers N` for one process per core)

## Layout

- `src/app.ts`: the App (middleware in order, then routes in match order)
- `src/server.ts`: starts the server (`PORT`, `HOST`)
- `src/db.ts`: the database (`DATABASE_URL`, else `db/<environment>.sqlite`)
- `src/actions/`: handlers and resources, with their tests
- `src/models/`: models (types, table, validation)
@@layoutRows@@- `migrations/`: `<UTC timestamp>_<name>.ts`, each with `up` and `down`

## Configuration

Copy `.env.example` to `.env`. `GO_ENV` (else `NODE_ENV`) picks the environment, default
`development`; any name but `development` and `test` runs with production's defaults. Those
environments need `SESSION_SECRET` (32 characters or more; `npx wisent secret` makes one), and
usually `DATABASE_URL`, `APP_URL` (the app's public URL) and, for more hosts, `ALLOWED_HOSTS`.

## Deploy

`Dockerfile` builds a production image: `npm ci`, the dev dependencies pruned, `npx wisent
build`, then the built app run by the non-root user `node`, which owns the folders it writes
(`storage/` for uploads, `tmp/`, `db/` for SQLite). `.dockerignore` keeps `node_modules`, `dist`,
local databases, uploads, `tmp/` (development's session secret) and `.env` out of it.

```sh
docker build -t @@packageName@@ .
@@dockerRun@@
```

The container runs `wisent db prepare` (creates the database when it is missing and runs pending
migrations, one replica at a time), then `wisent start` on `0.0.0.0:3000` with
`GO_ENV=production`. Volumes: `/app/storage` keeps uploaded files (or set `STORAGE_URL` to an S3
bucket, `s3://bucket?region=...`, and mount nothing), and a SQLite app's `/app/db` its database.
An app on PostgreSQL or MySQL needs `DATABASE_URL`: without it, production refuses to start and
says so (it never falls back to SQLite). `GET /up` (`app.healthCheck` in `src/app.ts`) answers
200 while the app and its database do and 503 when the database does not: the image's
`HEALTHCHECK` and load balancers probe it, and it is never redirected to HTTPS nor logged.
`npx wisent run scripts/task.ts` runs a script of your own in the app's environment (its `.env`
and database), as a one-off task in the container too.
