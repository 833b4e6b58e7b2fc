export {
  type ContentSecurityPolicy,
  DEFAULT_CONTENT_SECURITY_POLICY,
  DEFAULT_PERMISSIONS_POLICY,
  type PermissionsPolicy,
  type SecurityHeadersOptions,
  securityHeaders,
} from "./security-headers.js";
