/**
 * The two route tables of docs/guides/routing.md (widgets, and images nested in widgets), as
 * data, in the App's registration order.
 */
export interface SpecRow {
  readonly method: string;
  readonly path: string;
  readonly operation: string;
  readonly name: string;
}

export const WIDGET_ROUTES: readonly SpecRow[] = [
  { method: "GET", path: "/widgets/", operation: "List", name: "widgetsPath" },
  { method: "POST", path: "/widgets/", operation: "Create", name: "widgetsPath" },
  { method: "GET", path: "/widgets/new/", operation: "New", name: "newWidgetsPath" },
  { method: "GET", path: "/widgets/{widget_id}/", operation: "Show", name: "widgetPath" },
  { method: "PUT", path: "/widgets/{widget_id}/", operation: "Update", name: "widgetPath" },
  { method: "DELETE", path: "/widgets/{widget_id}/", operation: "Destroy", name: "widgetPath" },
  { method: "GET", path: "/widgets/{widget_id}/edit/", operation: "Edit", name: "editWidgetPath" },
];

export const NESTED_IMAGE_ROUTES: readonly SpecRow[] = [
  {
    method: "GET",
    path: "/widgets/{widget_id}/images/",
    operation: "List",
    name: "widgetImagesPath",
  },
  {
    method: "POST",
    path: "/widgets/{widget_id}/images/",
    operation: "Create",
    name: "widgetImagesPath",
  },
  {
    method: "GET",
    path: "/widgets/{widget_id}/images/new/",
    operation: "New",
    name: "newWidgetImagesPath",
  },
  {
    method: "GET",
    path: "/widgets/{widget_id}/images/{image_id}/",
    operation: "Show",
    name: "widgetImagePath",
  },
  {
    method: "PUT",
    path: "/widgets/{widget_id}/images/{image_id}/",
    operation: "Update",
    name: "widgetImagePath",
  },
  {
    method: "DELETE",
    path: "/widgets/{widget_id}/images/{image_id}/",
    operation: "Destroy",
    name: "widgetImagePath",
  },
  {
    method: "GET",
    path: "/widgets/{widget_id}/images/{image_id}/edit/",
    operation: "Edit",
    name: "editWidgetImagePath",
  },
];
