import { usePage } from "wisent";

/** The welcome page at `/`. Replace it with your own. */
export function HomePage() {
  const { t } = usePage();
  return (
    <section class="welcome">
      <h1>{t("home.welcome", { name: "Shop" })}</h1>
      <p class="lead">{t("home.lead")}</p>
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
