export { RequestTransaction } from "./request-transaction.js";
export { readBeforeTransaction, transaction } from "./transaction.js";
