import { database } from "wisent/db";

/**
 * The app's database: DATABASE_URL, else `sqlite:db/<environment>.sqlite`. Nothing connects until
 * the first query, so tools (`wisent routes`) and tests can import the app without a database.
 */
export const db = database();
