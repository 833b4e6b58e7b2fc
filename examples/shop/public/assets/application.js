// Shop: unobtrusive behaviour for links, loaded with `defer` (no inline script, so a strict
// Content-Security-Policy holds).
//
// <a href="/widgets/1" data-method="DELETE" data-confirm="Are you sure?">Destroy</a>
// <form method="post" action="/widgets/1">...<button data-confirm="Are you sure?">Destroy</button></form>
//   data-confirm: asks first (window.confirm) and stops when the answer is no (without
//                 JavaScript, the generated Destroy form submits without asking).
//   data-method:  sends the link as a POST form with _method=<METHOD> and the CSRF token from
//                 <meta name="csrf-token">, which the server's method override turns into the verb.
// fetch():          same-origin requests other than GET/HEAD/OPTIONS carry the page's CSRF token
//                   as X-CSRF-Token, which the server asks of any body that is not a form when
//                   the request carries the session cookie (docs/security.md in Wisent).

function csrfField() {
  const param = document.querySelector('meta[name="csrf-param"]');
  const token = document.querySelector('meta[name="csrf-token"]');
  if (!param || !token) return undefined;
  return { name: param.getAttribute("content"), value: token.getAttribute("content") };
}

const nativeFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  const request = new Request(input, init);
  const token = csrfField()?.value;
  const safe = ["GET", "HEAD", "OPTIONS"].includes(request.method);
  if (!token || safe || new URL(request.url).origin !== window.location.origin) {
    return nativeFetch(request);
  }
  const headers = new Headers(request.headers);
  if (!headers.has("X-CSRF-Token")) headers.set("X-CSRF-Token", token);
  return nativeFetch(new Request(request, { headers }));
};

function hiddenInput(name, value) {
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = name;
  input.value = value;
  return input;
}

function submitWithMethod(link, method) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = link.getAttribute("href");
  form.hidden = true;
  if (method !== "POST") form.appendChild(hiddenInput("_method", method));
  const csrf = csrfField();
  if (csrf?.name && csrf.value) form.appendChild(hiddenInput(csrf.name, csrf.value));
  document.body.appendChild(form);
  form.submit();
}

document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const target = event.target instanceof Element ? event.target : undefined;
  const element = target?.closest("[data-confirm], [data-method]");
  if (!element) return;
  const question = element.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  const method = element.getAttribute("data-method")?.toUpperCase();
  if (method && method !== "GET" && element instanceof HTMLAnchorElement) {
    event.preventDefault();
    submitWithMethod(element, method);
  }
});
