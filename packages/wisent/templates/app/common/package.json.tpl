{
  "name": "@@packageName@@",
  "version": "0.1.0",
  "private": true,
  "license": "UNLICENSED",
  "type": "module",
  "engines": {
    "node": "@@nodeEngines@@"
  },
  "wisent": {
    "database": "@@database@@"
  },
  "scripts": {
    "dev": "wisent dev",
    "build": "wisent build",
    "start": "wisent start",
    "test": "vitest run",
    "migrate": "wisent migrate",
    "routes": "wisent routes",
    "typecheck": "tsc --noEmit",
    "lint": "biome check ."
  },
  "dependencies": {
    "hono": "@@honoDependency@@",
    "wisent": "@@wisentDependency@@",
    "zod": "@@zodDependency@@"
  },
  "devDependencies": {
    "@biomejs/biome": "@@biomeVersion@@",
    "@types/node": "@@typesNodeVersion@@",
    "typescript": "@@typescriptVersion@@",
    "vitest": "@@vitestVersion@@"
  },
  "allowScripts": {
    "better-sqlite3": true,
    "esbuild": true
  }
}
