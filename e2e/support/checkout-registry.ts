/**
 * A local registry serving this checkout's packed `wisent` and `create-wisent` (every other
 * package proxied), for the install suites, which install Wisent as a user does.
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { packPackages, REPO, startLocalRegistry } from "../../scripts/local-registry/index.mjs";

export type LocalRegistry = Awaited<ReturnType<typeof startLocalRegistry>>;

/**
 * Packs this checkout (its build must exist) and publishes it to a registry started under `root`.
 * @example const registry = await registryOfThisCheckout(root); // then registry.env({}), registry.stop()
 */
export async function registryOfThisCheckout(root: string): Promise<LocalRegistry> {
  if (!existsSync(join(REPO, "packages/wisent/dist/cli/main.js"))) {
    throw new Error("packages/wisent/dist is missing: run npm run build first");
  }
  const registry = await startLocalRegistry(join(root, "registry"));
  for (const tarball of packPackages(join(root, "packs"))) await registry.publish(tarball);
  return registry;
}
