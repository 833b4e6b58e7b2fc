export { type ForceSSLOptions, forceSSL, isSecureRequest } from "./force-ssl.js";
