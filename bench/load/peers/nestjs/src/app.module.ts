import { Module } from "@nestjs/common";
import { TypeOrmModule } from "@nestjs/typeorm";
import { Widget } from "./widget.entity";
import { WidgetsController } from "./widgets.controller";

const url = process.env.DATABASE_URL ?? "";
const database = url.startsWith("sqlite:")
  ? ({ type: "better-sqlite3", database: url.slice("sqlite:".length) } as const)
  : ({ type: "postgres", url, poolSize: 10 } as const);

@Module({
  imports: [
    TypeOrmModule.forRoot({
      ...database,
      entities: [Widget],
      synchronize: false,
      logging: false,
    }),
    TypeOrmModule.forFeature([Widget]),
  ],
  controllers: [WidgetsController],
})
export class AppModule {}
