export { CSRF_FIELD, CSRF_HEADER, csrf } from "./csrf.js";
export { maskCsrfToken, newCsrfSecret, verifyCsrfToken } from "./csrf-token.js";
