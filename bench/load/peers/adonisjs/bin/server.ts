/*
 * The HTTP server's entry point, as the starter kits' bin/server.ts: the Ignitor boots the app
 * from its root (here the compiled build/ folder) and starts the HTTP server.
 */
await import("reflect-metadata");
const { Ignitor, prettyPrintError } = await import("@adonisjs/core");

const APP_ROOT = new URL("../", import.meta.url);
const IMPORTER = (filePath: string) => {
  if (filePath.startsWith("./") || filePath.startsWith("../")) {
    return import(new URL(filePath, APP_ROOT).href);
  }
  return import(filePath);
};

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import("#start/env");
    });
    app.listen("SIGTERM", () => app.terminate());
    app.listenIf(app.managedByPm2, "SIGINT", () => app.terminate());
  })
  .httpServer()
  .start()
  .catch((error) => {
    process.exitCode = 1;
    prettyPrintError(error);
  });
