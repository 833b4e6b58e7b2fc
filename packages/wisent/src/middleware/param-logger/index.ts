export {
  FILTERED,
  FILTERED_KEY_PARTS,
  filterHeaders,
  filterKeyForm,
  filterParams,
} from "./filter-params.js";
export { type ParamLoggerOptions, paramLogger } from "./param-logger.js";
export { REQUEST_ID_HEADER, requestIdFrom } from "./request-id.js";
