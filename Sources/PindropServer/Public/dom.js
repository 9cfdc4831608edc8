// Pindrop web app: the DOM helpers every module shares. Text reaches the page only through textContent, never as
// HTML, so place, venue and street names always stay text.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** A new element with an optional class and text. */
export function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

/** A section of the panel's list, with an optional heading. */
export function section(title, className) {
  const s = element("section", className);
  if (title) s.append(element("h2", null, title));
  return s;
}

/** A button row of a list. */
export function rowButton(text, onClick) {
  const b = element("button", "row", text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}
