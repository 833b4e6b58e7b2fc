export { overrideMethod } from "./method-override.js";
