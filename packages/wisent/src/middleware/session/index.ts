export { Session, type SessionOptions, session, sessionCookieName } from "./session.js";
export { type SessionData, sealSession, unsealSession } from "./session-codec.js";
export {
  developmentSecret,
  resolveSessionPasswords,
  type SessionPassword,
} from "./session-secrets.js";
