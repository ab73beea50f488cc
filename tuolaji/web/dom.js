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
    if (!present(value)) continue;
    if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "class") el.className = `${el.className} ${value}`.trim();
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.filter(present)) el.append(typeof child === "number" ? String(child) : child);
  return el;
}

/**
 * Whether an attribute or child given to h(), fill() or patch() is there (null, undefined and false are skipped).
 * @template T
 * @param {T|null|undefined|false} child
 * @returns {child is T}
 */
function present(child) {
  return child !== null && child !== undefined && child !== false;
}

/** @type {WeakMap<Element, Record<string, ((event: Event) => void)|undefined>>} the listeners h() gave each element */
const HANDLERS = new WeakMap();

/**
 * Listen through the element's entry in HANDLERS, so that patch() can hand a kept element its new listeners.
 * @param {Element} el
 * @param {string} type
 * @param {(event: Event) => void} handler
 */
function listen(el, type, handler) {
  let handlers = HANDLERS.get(el);
  if (handlers === undefined) HANDLERS.set(el, (handlers = {}));
  if (!(type in handlers)) el.addEventListener(type, (event) => HANDLERS.get(el)?.[type]?.call(el, event));
  handlers[type] = handler;
}

/**
 * An element's key among its siblings: its data-key, id or data-action (null for text and unkeyed elements).
 * @param {Node} node
 */
function keyOf(node) {
  if (!(node instanceof Element)) return null;
  return node.getAttribute("data-key") ?? (node.id || node.getAttribute("data-action"));
}

/**
 * Make an element's children those given, keeping the elements already there that match one (the same tag
 * and key; unkeyed, the same tag and the same rank among the unkeyed of that tag): their attributes, text,
 * listeners and children are brought up to date in place, and what is gone is taken out before anything is
 * placed, so a kept element is not even moved unless the order changed. A button under a finger or an open
 * select is thus neither replaced nor moved when an update redraws the part it is in, and a press that spans
 * the update still clicks it. Listeners added other than by h() stay those of the element kept.
 * @param {Element} el
 * @param {...(Node|string|null|undefined|false)} children
 */
export function patch(el, ...children) {
  const wanted = children
    .filter(present)
    .map((child) => (typeof child === "string" ? document.createTextNode(child) : /** @type {Node} */ (child)));
  /** @type {Map<string, number>} */
  let ranks = new Map();
  const slot = (/** @type {Node} */ node) => {
    const key = keyOf(node);
    if (key !== null) return `${node.nodeName}:${key}`;
    const rank = ranks.get(node.nodeName) ?? 0;
    ranks.set(node.nodeName, rank + 1);
    return `${node.nodeName}#${rank}`;
  };
  /** @type {Map<string, ChildNode>} */
  const there = new Map();
  for (const node of el.childNodes) there.set(slot(node), node);
  ranks = new Map();
  const kept = wanted.map((node) => {
    const name = slot(node);
    const old = there.get(name);
    there.delete(name);
    return old;
  });
  for (const gone of there.values()) gone.remove();
  wanted.forEach((node, place) => {
    const here = el.childNodes[place] ?? null;
    const old = kept[place];
    if (old === undefined) {
      el.insertBefore(node, here);
      return;
    }
    update(old, node);
    if (old !== here) el.insertBefore(old, here);
  });
  while (el.childNodes.length > wanted.length) el.lastChild?.remove();
}

/**
 * Bring ``kept`` up to date with ``fresh`` (same tag): attributes, listeners, children; text nodes, their text.
 * @param {Node} kept
 * @param {Node} fresh
 */
function update(kept, fresh) {
  if (!(kept instanceof Element) || !(fresh instanceof Element)) {
    if (kept.nodeValue !== fresh.nodeValue) kept.nodeValue = fresh.nodeValue;
    return;
  }
  for (const { name, value } of fresh.attributes) {
    if (kept.getAttribute(name) !== value) kept.setAttribute(name, value);
  }
  for (const { name } of [...kept.attributes]) {
    if (!fresh.hasAttribute(name)) kept.removeAttribute(name);
  }
  const handlers = HANDLERS.get(fresh) ?? {};
  const had = HANDLERS.get(kept) ?? {};
  for (const type of Object.keys(had)) {
    if (!(type in handlers)) had[type] = undefined;
  }
  for (const [type, handler] of Object.entries(handlers)) {
    if (handler) listen(kept, type, handler);
  }
  patch(kept, ...fresh.childNodes);
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
  el.replaceChildren(...children.filter(present));
}
