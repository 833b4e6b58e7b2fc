# syntax=docker/dockerfile:1
# The @@name@@ @@appKind@@ in production. Build the image and run it:
#
#   docker build -t @@packageName@@ .
#   @@dockerRun@@
#
# npm ci installs from package-lock.json (npm install writes it: commit it with the app).
# .dockerignore keeps development's files out: node_modules, dist, local databases, uploads
# (storage/), tmp/ (development's session secret) and .env.

# The Node the image runs: a version the app's package.json "engines" allows (a test checks it).
ARG NODE_VERSION=24
FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app

# Build: every dependency installed, the dev dependencies (TypeScript, Vitest, Biome) pruned away,
# then the app compiled to plain JavaScript in dist/ (wisent build, through esbuild, which wisent
# brings). In this order because npm prune rewrites package-lock.json, and wisent start rebuilds
# a build older than its sources: built after the prune, the image's build stays current.
FROM base AS build
# Native modules (better-sqlite3) compile here when npm finds no prebuilt binary for them.
RUN apt-get update -qq \
  && apt-get install --no-install-recommends -y python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm prune --omit=dev && npx wisent build
# The folders the app writes at run time: uploads (storage/, unless STORAGE_URL names a bucket),
# tmp/ and, for SQLite, db/. Made here, so that the copy below hands them to the user "node".
RUN mkdir -p storage tmp db

# Run: the built app and its production dependencies, run by the image's non-root user "node",
# which owns them (so it can write storage/, tmp/ and db/).
FROM base
ENV GO_ENV=production \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
COPY --from=build --chown=node:node /app /app
@@dockerDatabase@@
USER node
EXPOSE 3000
# GET /up answers 200 while the app and its database do, 503 otherwise (app.healthCheck in src/app.ts).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/up`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# First wisent db prepare: it creates the database when it is missing and runs the pending
# migrations, one replica at a time when several start together (a lock on the database server,
# or on the SQLite file). Then the server, which replaces the shell and is started without npx
# (which neither passes SIGTERM on nor waits for it), so docker stop's SIGTERM reaches it and it
# drains its requests before exiting.
CMD ["sh", "-c", "node_modules/.bin/wisent db prepare && exec node_modules/.bin/wisent start"]
