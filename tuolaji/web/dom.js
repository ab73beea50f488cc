// A tiny element builder shared by the views.

/**
 * Create an element: h("button.primary", {onclick, disabled: true}, "text", child).
 * The tag may carry classes after dots; attrs: "on…" functions become listeners, "dataset" an object,
 * booleans toggle attributes, null/undefined/false are skipped. Children: nodes, strings, null (skipped).
 * @param {string} spec
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|number|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "class") el.className = `${el.className} ${value}`.trim();
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "number" ? String(child) : child);
  }
  return el;
}

/**
 * Show a short message at the bottom of the screen for a few seconds.
 * @param {string} text
 * @param {"info"|"error"} [kind]
 */
export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.className = `toast show ${kind}`;
  clearTimeout(Number(box.dataset.timer));
  box.dataset.timer = String(setTimeout(() => box.classList.remove("show"), 3500));
}

/**
 * Replace an element's children, skipping null/undefined/false entries.
 * @param {Element} el
 * @param {...(Node|string|null|undefined|false)} children
 */
export function fill(el, ...children) {
  el.replaceChildren(...children.filter((child) => child !== null && child !== undefined && child !== false));
}
