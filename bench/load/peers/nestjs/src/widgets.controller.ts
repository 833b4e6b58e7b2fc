import {
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
} from "@nestjs/common";
import { InjectRepository } from "@nestjs/typeorm";
import type { Repository } from "typeorm";
import { v7 as uuidv7 } from "uuid";
import { CreateWidgetDto } from "./create-widget.dto";
import { Widget } from "./widget.entity";

@Controller("widgets")
export class WidgetsController {
  constructor(@InjectRepository(Widget) private readonly widgets: Repository<Widget>) {}

  /** A page of widgets (20 by default, at most 100) and the total. */
  @Get()
  async list(@Query("page") pageParam?: string, @Query("per_page") perPageParam?: string) {
    const perPage = Math.min(100, Math.max(1, Number.parseInt(perPageParam ?? "", 10) || 20));
    const page = Math.max(1, Number.parseInt(pageParam ?? "", 10) || 1);
    const [data, total] = await this.widgets.findAndCount({
      order: { id: "ASC" },
      take: perPage,
      skip: (page - 1) * perPage,
    });
    return { data, meta: { total, page, per_page: perPage } };
  }

  @Get(":id")
  async show(@Param("id") id: string) {
    const widget = await this.widgets.findOneBy({ id });
    if (!widget) throw new NotFoundException(`widget not found: ${id}`);
    return widget;
  }

  @Post()
  @HttpCode(201)
  async create(@Body() input: CreateWidgetDto) {
    const now = new Date();
    const widget = this.widgets.create({
      id: uuidv7(),
      title: input.title,
      description: input.description ?? null,
      created_at: now,
      updated_at: now,
    });
    return this.widgets.save(widget);
  }
}
