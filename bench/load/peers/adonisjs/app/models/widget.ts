import { randomUUID } from "node:crypto";
import { BaseModel, beforeCreate, column } from "@adonisjs/lucid/orm";
import { DateTime } from "luxon";
import env from "#start/env";

/*
 * The widgets table is Wisent's (made by its migration): on SQLite its timestamps are ISO-8601
 * strings, which Lucid's default (SQL-format) prepare/consume would not read, so the columns say
 * how; on PostgreSQL they are timestamps, read as Dates.
 */
const sqlite = env.get("DATABASE_URL").startsWith("sqlite:");
const timestamp = {
  prepare: (value: DateTime) => (sqlite ? value.toUTC().toISO() : value.toJSDate()),
  consume: (value: string | Date) =>
    typeof value === "string" ? DateTime.fromISO(value) : DateTime.fromJSDate(value),
  serialize: (value: DateTime) => value.toUTC().toISO(),
};

export default class Widget extends BaseModel {
  static selfAssignPrimaryKey = true;

  @column({ isPrimary: true })
  declare id: string;

  @column()
  declare title: string;

  @column()
  declare description: string | null;

  @column.dateTime({ autoCreate: true, ...timestamp })
  declare createdAt: DateTime;

  @column.dateTime({ autoCreate: true, autoUpdate: true, ...timestamp })
  declare updatedAt: DateTime;

  @beforeCreate()
  static assignId(widget: Widget) {
    widget.id = randomUUID();
  }
}
