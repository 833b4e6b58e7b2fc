/** Resources used by the core's tests: each answers with its operation and the id it saw. */
import type { Context } from "hono";
import { Resource } from "../../resources/resource.js";

function answer(c: Context, op: string, key?: string): Response {
  return c.text(key ? `${op} ${c.req.param(key)}` : op);
}

export class WidgetsResource extends Resource<"widget_id"> {
  override list(c: Context) {
    return answer(c, "list");
  }
  override show(c: Context) {
    return answer(c, "show", "widget_id");
  }
  new(c: Context) {
    return answer(c, "new");
  }
  override create(c: Context) {
    return answer(c, "create");
  }
  edit(c: Context) {
    return answer(c, "edit", "widget_id");
  }
  override update(c: Context) {
    return answer(c, "update", "widget_id");
  }
  override destroy(c: Context) {
    return answer(c, "destroy", "widget_id");
  }
}

export class ImagesResource extends Resource<"image_id"> {
  override list(c: Context) {
    return c.text(`images of ${c.req.param("widget_id")}`);
  }
  override show(c: Context) {
    return c.text(`image ${c.req.param("image_id")} of ${c.req.param("widget_id")}`);
  }
  new(c: Context) {
    return answer(c, "new image");
  }
  override create(c: Context) {
    return answer(c, "create image");
  }
  edit(c: Context) {
    return answer(c, "edit image", "image_id");
  }
  override update(c: Context) {
    return answer(c, "update image", "image_id");
  }
  override destroy(c: Context) {
    return answer(c, "destroy image", "image_id");
  }
}

/** Only the five required operations: no New or Edit routes. */
export class PeopleResource extends Resource<"person_id"> {
  override list(c: Context) {
    return answer(c, "list people");
  }
}

export class UserProfilesResource extends Resource<"user_profile_id"> {
  new(c: Context) {
    return answer(c, "new profile");
  }
  edit(c: Context) {
    return answer(c, "edit profile", "user_profile_id");
  }
}

/** Nothing overridden: every operation answers the base resource's 404. */
export class GadgetsResource extends Resource<"gadget_id"> {}

export function HomeHandler(c: Context): Response {
  return c.text("home");
}
