/**
 * `wisent/auth`: authentication (password hashing, sessions' current user, access tokens),
 * authorization policies, password resets, email verification, sign-in limits and mail.
 *
 * @example
 * import { authentication, hashPassword, requireAuthentication } from "wisent/auth";
 * @module
 */

export {
  defineMail,
  type Mail,
  type MailSettings,
  type MailTo,
  type Translate,
} from "../mail/define-mail.js";
export {
  type DeliverLaterOptions,
  DeliverMail,
  deliverLater,
  deliverNow,
} from "../mail/deliver-mail.js";
export { type Mailer, type MailerOptions, type MailMessage, mailer } from "../mail/mailer.js";
export {
  accessTokenDigest,
  bearerToken,
  currentTokenDigest,
  newAccessToken,
  type TokenAuthenticationOptions,
  tokenAuthentication,
  usesBearerTokens,
} from "./access-token.js";
export { authentication } from "./authentication.js";
export {
  type AuthenticationOptions,
  type CurrentUser,
  SEEN_AT_SESSION_KEY,
  SESSION_GENERATION_SESSION_KEY,
  SESSION_LIFETIME_SECONDS,
  SIGNED_IN_AT_SESSION_KEY,
  sessionGeneration,
  signIn,
  signOut,
  USER_ID_SESSION_KEY,
} from "./current-user.js";
export {
  EMAIL_VERIFICATION_SECONDS,
  type EmailVerificationTokenOptions,
  EmailVerificationTokens,
  type VerifiableUser,
} from "./email-verification-token.js";
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
export { isCommonPassword, weakPasswordProblem } from "./password-strength.js";
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
export {
  RETURN_TO_PARAM,
  RETURN_TO_SESSION_KEY,
  rememberReturnPath,
  safeReturnPath,
  takeReturnPath,
} from "./return-path.js";
export { SignInLimits, type SignInLimitsOptions } from "./sign-in-limits.js";
