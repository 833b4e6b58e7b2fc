export {
  accessTokenDigest,
  bearerToken,
  currentTokenDigest,
  newAccessToken,
  type TokenAuthenticationOptions,
  tokenAuthentication,
} from "./access-token.js";
export {
  type AuthenticationOptions,
  authentication,
  type CurrentUser,
  signIn,
  signOut,
  USER_ID_SESSION_KEY,
} from "./current-user.js";
export {
  clearSentMail,
  type Mailer,
  type MailerOptions,
  type MailMessage,
  mailer,
  sentMail,
} from "./mailer.js";
export {
  hashPassword,
  PASSWORD_HASH_PARAMS,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordCheck,
  passwordHashParams,
  type ScryptParams,
  verifyPassword,
  verifyWithoutUser,
} from "./password-hash.js";
export { authorize, definePolicy, forbidden, type Policy, type Rule } from "./policy.js";
export {
  authenticationRequired,
  type RequireAuthenticationOptions,
  requireAuthentication,
} from "./require-authentication.js";
export {
  type PasswordResetTokenOptions,
  PasswordResetTokens,
  RESET_TOKEN_SECONDS,
  type ResettableUser,
} from "./reset-token.js";
export { RETURN_TO_PARAM, safeReturnPath } from "./return-path.js";
export { SignInLimits, type SignInLimitsOptions } from "./sign-in-limits.js";
