import { Column, Entity, PrimaryColumn } from "typeorm";

const sqlite = (process.env.DATABASE_URL ?? "").startsWith("sqlite:");
/**
 * The widgets table is Wisent's (made by the app's migration): on SQLite its timestamps are ISO
 * strings, on PostgreSQL timestamps; both are read back as Dates.
 */
const timestamp = {
  type: sqlite ? ("varchar" as const) : ("timestamptz" as const),
  transformer: {
    to: (value: Date | undefined) => (sqlite && value ? value.toISOString() : value),
    from: (value: string | Date) => new Date(value),
  },
};

@Entity("widgets")
export class Widget {
  @PrimaryColumn("varchar")
  id: string;

  @Column("varchar")
  title: string;

  @Column("text", { nullable: true })
  description: string | null;

  @Column(timestamp)
  created_at: Date;

  @Column(timestamp)
  updated_at: Date;
}
