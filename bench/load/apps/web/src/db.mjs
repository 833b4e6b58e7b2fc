import { database } from "wisent";

/** The app's database (DATABASE_URL, else db/<env>.sqlite), opened on the first query. */
export const db = database(process.env.DATABASE_URL, {
  poolSize: Number(process.env.POOL_SIZE) || 10,
});
