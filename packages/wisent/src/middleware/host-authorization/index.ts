export {
  allowedHosts,
  type HostAuthorizationOptions,
  hostAuthorization,
} from "./host-authorization.js";
