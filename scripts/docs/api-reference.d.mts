/** The types of api-reference.mjs's exports, for its test and the docs site's config. */
export const API_REFERENCE_DIR: string;
export const UNDOCUMENTED_SUBPATHS: ReadonlyMap<string, string>;
export interface ApiEntry {
  /** The import specifier (`wisent/db`), also the page's path under docs/reference/api/. */
  readonly specifier: string;
  /** The TypeScript source of the subpath's types. */
  readonly source: string;
}
export function apiEntries(packageJson?: {
  name: string;
  exports: Record<string, unknown>;
}): ApiEntry[];
export function apiSidebarItems(packageJson?: {
  name: string;
  exports: Record<string, unknown>;
}): { text: string; link: string }[];
export function writeApiReference(out?: string): Promise<(ApiEntry & { file: string })[]>;
