// data-method / data-confirm links (a file, not an inline script, so the CSP needs no 'unsafe-inline').
document.addEventListener("click", (event) => {
  const link =
    event.target instanceof Element
      ? event.target.closest("a[data-confirm], a[data-method]")
      : null;
  if (!link) return;
  const question = link.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  const method = link.getAttribute("data-method");
  if (!method) return;
  event.preventDefault();
  const form = document.createElement("form");
  form.method = "POST";
  form.action = link.href;
  const add = (name, value) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  };
  add("_method", method.toUpperCase());
  const param = document.querySelector('meta[name="csrf-param"]');
  const token = document.querySelector('meta[name="csrf-token"]');
  if (param && token) add(param.content, token.content);
  document.body.appendChild(form);
  form.submit();
});
