import { jobsInProcessSetting } from "../config/settings.js";

/**
 * Whether the app's server performs its jobs too (`wisent dev`, `wisent start --jobs`, which set
 * `WISENT_JOBS=1`); otherwise `wisent jobs work` does, in processes of its own.
 */
export function jobsInProcess(): boolean {
  return jobsInProcessSetting();
}
