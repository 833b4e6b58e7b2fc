/** The types of repository-links.mjs's exports, for its test (the plugin stays plain JavaScript). */
export interface LinkOptions {
  repositoryRoot: string;
  docsRoot: string;
  webUrl: string;
  branch?: string;
}
export function repositoryWebUrl(packageJson: { repository?: string | { url?: string } }): string;
export function rewriteLink(href: string, pagePath: string, options: LinkOptions): string;
export function repositoryLinks(
  md: unknown,
  options: { docsRoot: string; repositoryRoot?: string },
): void;
