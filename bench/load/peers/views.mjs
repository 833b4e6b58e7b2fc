// The peers' widget views (index and show): the hand-written hono/jsx pages of the reliability
// suite's app (e2e/reliability/app), made after the pages `wisent g r widget` generated when the
// load bench was first written. The Wisent web variant renders examples/shop's own generated
// templates, which carry more markup (skip link, header navigation, footer, translated labels):
// compare HTML figures with that in mind.
export { Index, Show } from "../../../e2e/reliability/app/src/templates/widgets/views.mjs";
