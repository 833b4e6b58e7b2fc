/**
 * Naming: every name derived from a resource name (singular/plural, cases, param key, table,
 * folders, route names). The single source of truth for the App and the generator.
 * @module
 */
export type { Acronym } from "./acronyms.js";
export { isAcronym } from "./acronyms.js";
export { indefiniteArticle, withArticle } from "./article.js";
export { camelize, pascalize, titleize, underscore } from "./casing.js";
export { didYouMean, editDistance } from "./did-you-mean.js";
export { isUncountable, pluralize, singularize } from "./inflection.js";
export type { Names, ResourceRouteNames } from "./names.js";
export { names, singularNames } from "./names.js";
export { paramKeyFromClassName, paramKeyFromPath } from "./param-key.js";
export type { RouteNameOptions } from "./route-name.js";
export { pathName, routeNameForPath } from "./route-name.js";
export { sessionCookieName } from "./session-cookie-name.js";
export { validateResourceName } from "./validate.js";
export type { WordSpan } from "./words.js";
export { splitWords, wordSpans } from "./words.js";
