export {
  type ContentSecurityPolicy,
  DEFAULT_CONTENT_SECURITY_POLICY,
  type SecurityHeadersOptions,
  securityHeaders,
} from "./security-headers.js";
