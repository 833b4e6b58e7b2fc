/**
 * Wisent: resource routing, route names, generators and a real database for Hono apps.
 * @module
 */
export { HttpError, isHttpError } from "./http/http-error.js";
