import type { HttpContext } from "@adonisjs/core/http";
import Widget from "#models/widget";
import { createWidgetValidator } from "#validators/widget";

/** Answers JSON or the HTML page, by the Accept header (as the Wisent apps do on one route). */
const wantsJson = ({ request }: HttpContext) => request.accepts(["html", "json"]) === "json";

export default class WidgetsController {
  /** A page of widgets (20 by default, at most 100) with the total. */
  async index(ctx: HttpContext) {
    const { request, view } = ctx;
    const page = Math.max(1, Number.parseInt(request.input("page"), 10) || 1);
    const perPage = Math.min(
      100,
      Math.max(1, Number.parseInt(request.input("per_page"), 10) || 20),
    );
    const widgets = await Widget.query().orderBy("id").paginate(page, perPage);
    if (wantsJson(ctx)) return widgets.serialize();
    widgets.baseUrl("/widgets");
    return view.render("widgets/index", { widgets });
  }

  async show(ctx: HttpContext) {
    const widget = await Widget.findOrFail(ctx.params.id);
    if (wantsJson(ctx)) return widget.serialize();
    return ctx.view.render("widgets/show", { widget });
  }

  async store(ctx: HttpContext) {
    const { request, response, session } = ctx;
    const data = await request.validateUsing(createWidgetValidator);
    const widget = await Widget.create(data);
    if (wantsJson(ctx)) return response.created(widget.serialize());
    session.flash("notice", "Widget was successfully created.");
    return response.redirect(`/widgets/${widget.id}`);
  }
}
