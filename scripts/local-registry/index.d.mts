/** The types of index.mjs's exports, for the registry test (the module itself stays plain node). */
export const REPO: string;
export const LOCAL_PACKAGES: string[];
export const NPM: string;
export function upstreamRegistry(env?: NodeJS.ProcessEnv): string;
export function cleanNpmEnv(env?: NodeJS.ProcessEnv): Record<string, string | undefined>;
export function packPackages(dest: string): string[];
export interface LocalRegistry {
  url: string;
  upstream: string;
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  publish(tarball: string): Promise<void>;
  stop(): Promise<void>;
}
export function startLocalRegistry(
  dir: string,
  options?: { upstream?: string; cache?: string },
): Promise<LocalRegistry>;
