export { type I18nOptions, i18n } from "./i18n.js";
export { matchLanguage, parseAcceptLanguage } from "./language.js";
export { flattenMessages, loadLocaleDirectory, type Messages } from "./locale-files.js";
