export { RequestTransaction } from "./request-transaction.js";
export { transaction } from "./transaction.js";
