import { HttpError } from "../base/http-error.js";

/**
 * The jobs' engine (Redis, from `JOBS_URL`) did not answer an enqueue made inside a request: the
 * request answers 503 with `Retry-After`, and its transaction rolls back, so that no record is
 * committed without the job it enqueued. The log line names `JOBS_URL` (masked) and the cause.
 *
 * @example
 * if (isWisentError(error, "E_JOBS_UNAVAILABLE")) console.error(error.cause);
 */
export class JobsUnavailableError extends HttpError {
  override name = "JobsUnavailableError";

  constructor(cause: unknown) {
    super(503, "jobs unavailable: please try again shortly", {
      cause,
      code: "E_JOBS_UNAVAILABLE",
      headers: { "Retry-After": "5" },
    });
  }
}
