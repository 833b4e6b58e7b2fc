export { FLASH_SESSION_KEY, type FlashKind, flashMessages } from "./flash.js";
