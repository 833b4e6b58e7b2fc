/* @@title@@: default styles. Plain CSS, no build step; replace freely. */

:root {
  color-scheme: light dark;
  --bg: #f7f7f5;
  --surface: #ffffff;
  --text: #1d232a;
  --muted: #55606b;
  --border: #d6d9dc;
  --accent: #1f5fbf;
  --accent-text: #ffffff;
  --danger: #b3261e;
  --success-bg: #e6f4ea;
  --success-text: #14532d;
  --error-bg: #fdecea;
  --error-text: #7f1d1d;
  --info-bg: #e8f0fe;
  --info-text: #1e3a8a;
  --focus: #f59e0b;
  --radius: 6px;
  --space: 1rem;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  line-height: 1.55;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15181c;
    --surface: #1e2228;
    --text: #e8eaed;
    --muted: #a9b1ba;
    --border: #3a4049;
    --accent: #8ab4f8;
    --accent-text: #10151c;
    --danger: #f28b82;
    --success-bg: #17351f;
    --success-text: #b7ebc6;
    --error-bg: #3d1a1a;
    --error-text: #f9c9c5;
    --info-bg: #1a2a44;
    --info-text: #c6dafc;
  }
}

*,
*::before,
*::after {
  box-sizing: border-box;
}

body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  display: flex;
  flex-direction: column;
  min-height: 100vh;
}

.container {
  width: 100%;
  max-width: 64rem;
  margin: 0 auto;
  padding: 0 calc(var(--space) * 1.25);
}

main.container {
  flex: 1;
  padding-top: calc(var(--space) * 2);
  padding-bottom: calc(var(--space) * 3);
}

h1,
h2,
h3 {
  line-height: 1.2;
  margin: 0 0 var(--space);
}

h1 {
  font-size: 2rem;
}

h2 {
  font-size: 1.4rem;
  margin-top: calc(var(--space) * 2);
}

p {
  margin: 0 0 var(--space);
}

a {
  color: var(--accent);
  text-underline-offset: 0.2em;
}

code {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.92em;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 4px;
  padding: 0.1em 0.35em;
}

/* Focus: always visible for keyboard users. */
:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}

.skip-link {
  position: absolute;
  left: var(--space);
  top: -3rem;
  background: var(--surface);
  color: var(--text);
  padding: 0.5rem 1rem;
  border-radius: var(--radius);
  z-index: 10;
}

.skip-link:focus {
  top: var(--space);
}

.site-header {
  background: var(--surface);
  border-bottom: 1px solid var(--border);
}

.site-header nav {
  display: flex;
  align-items: center;
  gap: var(--space);
  min-height: 3.5rem;
}

.brand {
  font-weight: 700;
  font-size: 1.15rem;
  color: var(--text);
  text-decoration: none;
}

.site-footer {
  border-top: 1px solid var(--border);
  color: var(--muted);
  font-size: 0.9rem;
  padding: var(--space) 0;
}

.site-footer p {
  margin-top: 0;
  margin-bottom: 0;
}

.lead {
  font-size: 1.15rem;
  color: var(--muted);
}

.steps li {
  margin-bottom: 0.5rem;
}

/* Flash messages (c.flash("success", ...)): role="alert", one per message. */
.flash {
  display: grid;
  gap: 0.5rem;
  margin-bottom: calc(var(--space) * 1.5);
}

.alert {
  margin-bottom: var(--space);
  border-radius: var(--radius);
  padding: 0.75rem 1rem;
  border-left: 4px solid currentColor;
  background: var(--info-bg);
  color: var(--info-text);
}

.alert-success {
  background: var(--success-bg);
  color: var(--success-text);
}

.alert-error,
.alert-danger,
.alert-warning {
  background: var(--error-bg);
  color: var(--error-text);
}

/* Tables (resource lists). */
.table-wrap {
  overflow-x: auto;
}

table {
  width: 100%;
  border-collapse: collapse;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  margin-bottom: var(--space);
}

th,
td {
  text-align: left;
  padding: 0.6rem 0.8rem;
  border-bottom: 1px solid var(--border);
  vertical-align: top;
}

th {
  font-weight: 600;
  background: var(--bg);
}

tbody tr:nth-child(even) {
  background: color-mix(in srgb, var(--bg) 50%, var(--surface));
}

th.actions,
td.actions {
  white-space: nowrap;
  text-align: right;
}

td.actions > * + * {
  margin-left: 0.9rem;
}

/* Detail lists (show pages). */
dl {
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 0.5rem 1.5rem;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  padding: var(--space);
}

dt {
  font-weight: 600;
}

dd {
  margin: 0;
}

/* Forms. */
form {
  max-width: 40rem;
}

.field {
  display: grid;
  gap: 0.35rem;
  margin-bottom: var(--space);
}

label {
  font-weight: 600;
}

input[type="text"],
input[type="number"],
input[type="email"],
input[type="date"],
input[type="datetime-local"],
input[type="time"],
input[type="password"],
input:not([type]),
textarea,
select {
  font: inherit;
  color: var(--text);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  padding: 0.5rem 0.65rem;
  width: 100%;
}

input[type="checkbox"] {
  width: 1.15rem;
  height: 1.15rem;
}

/* A checkbox sits beside its label, not above it. */
.field-checkbox {
  display: flex;
  align-items: center;
  gap: 0.5rem;
}

.field-checkbox label {
  font-weight: 400;
}

.resource-links {
  display: flex;
  flex-wrap: wrap;
  gap: var(--space);
  margin-bottom: var(--space);
}

.field-error,
.invalid-feedback {
  color: var(--danger);
  font-size: 0.92rem;
}

[aria-invalid="true"] {
  border-color: var(--danger);
}

/* Buttons and button-like links. */
.button,
.btn,
button {
  display: inline-block;
  font: inherit;
  font-weight: 600;
  border: 1px solid var(--accent);
  background: var(--accent);
  color: var(--accent-text);
  border-radius: var(--radius);
  padding: 0.45rem 0.9rem;
  text-decoration: none;
  cursor: pointer;
}

.button-secondary,
.btn-secondary {
  background: transparent;
  color: var(--accent);
}

.button-danger,
.btn-danger {
  background: transparent;
  border-color: var(--danger);
  color: var(--danger);
}

/* The Cancel link beside a form's Save button. */
button[type="submit"] + .btn,
button[type="submit"] + .button {
  margin-left: 0.5rem;
}

/* Destroy: a form (works without JavaScript), its button drawn as the links beside it. */
form.button-to {
  display: inline;
  margin: 0;
}

button.link {
  display: inline;
  font: inherit;
  font-weight: inherit;
  border: 0;
  background: none;
  color: var(--accent);
  padding: 0;
  text-decoration: underline;
  text-underline-offset: 0.2em;
  cursor: pointer;
}

.actions-bar {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  align-items: center;
  margin-bottom: var(--space);
}

.page-header {
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: var(--space);
  margin-bottom: var(--space);
}

.page-header h1 {
  margin: 0;
}

/* Paginator (Paginator component from wisent). */
.pagination {
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem;
  list-style: none;
  padding: 0;
  justify-content: center;
}

.pagination a,
.pagination span {
  display: inline-block;
  min-width: 2.25rem;
  text-align: center;
  padding: 0.35rem 0.6rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--surface);
  text-decoration: none;
}

.pagination .active a,
.pagination .active span,
.pagination [aria-current="page"] {
  background: var(--accent);
  color: var(--accent-text);
  border-color: var(--accent);
}

.pagination .disabled span {
  color: var(--muted);
}
