/** The types of check-anchors.mjs's exports, for its test. */
export const SITE_DIR: string;
export function brokenAnchors(siteDir?: string): { page: string; href: string }[];
