import { type AppPaths, usePaths } from "wisent/jsx";

/** The app's resources, linked from the nav and the home page (`wisent g r` adds, `d r` removes). */
export const RESOURCES: { label: string; href: (paths: AppPaths) => string }[] = [
  { label: "Widgets", href: (paths) => paths.widgetsPath() },
  // wisent:links (generated resources' links go above this line)
];

/** A link to each resource. */
export function ResourceLinks() {
  const paths = usePaths();
  return (
    <>
      {RESOURCES.map((resource) => (
        <a href={resource.href(paths)}>{resource.label}</a>
      ))}
    </>
  );
}
