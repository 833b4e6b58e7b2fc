/**
 * `wisent/testing`: helpers for an app's own tests.
 * @module
 */
export { clearSentMail, sentMail } from "../mail/mailer.js";
export { CookieJar } from "./cookie-jar.js";
export {
  assertEnqueued,
  assertNotEnqueued,
  clearEnqueued,
  type EnqueuedJob,
  enqueuedJobs,
  type PayloadMatch,
  performEnqueued,
} from "./jobs.js";
export {
  assertBroadcast,
  assertNoBroadcasts,
  type Broadcast,
  broadcasts,
  clearBroadcasts,
} from "./live.js";
export { assertNothingSent, assertSent, type MailMatch, type SentMail } from "./mail.js";
export { samplePng } from "./sample-png.js";
export { signIn, signOut } from "./sign-in.js";
export {
  type FetchApp,
  type FormValue,
  TestClient,
  type TestClientOptions,
  type TestRequestOptions,
  testClient,
} from "./test-client.js";
export { prepareTestDatabase, removeTestUploads, testEnvironment } from "./test-database.js";
