import { usePage } from "wisent/jsx";
import { RESOURCES, ResourceLinks } from "../resource-links.js";

/** The welcome page at `/`. Replace it with your own. */
export function HomePage() {
  const { t } = usePage();
  return (
    <section class="welcome">
      <h1>{t("home.welcome", { name: "Shop" })}</h1>
      <p class="lead">{t("home.lead")}</p>
      {RESOURCES.length > 0 && (
        <nav class="resource-links" aria-label={t("home.resources")}>
          <ResourceLinks />
        </nav>
      )}
      <h2>{t("home.next_steps")}</h2>
      <ol class="steps">
        <li>
          <code>npx wisent g r widget title description:nulls.Text</code>
        </li>
        <li>
          <code>npm run migrate</code>
        </li>
        <li>
          <a href="/widgets">/widgets</a>
        </li>
      </ol>
    </section>
  );
}
