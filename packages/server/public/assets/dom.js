/* global Node */
// Data reaches the page only as text: el() builds elements and sets their text with textContent,
// never through HTML strings, so a device id or an extra like "<img onerror=...>" stays text.

/** el('td', { className: 'num', title: 'x' }, 'text', child) */
export function el(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export const $ = (id) => document.getElementById(id);

/** Replaces an element's children (text or elements) in one go. */
export function fill(element, ...children) {
  element.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false));
}

/**
 * Shows text in the JSON viewer (a record, a quarantined record, a log) and brings it into view:
 * on a phone it sits below the records table in the sheet, off-screen unless scrolled to.
 */
export function showInViewer(text) {
  const viewer = $('record-json');
  viewer.hidden = false;
  viewer.textContent = text;
  viewer.scrollTop = 0;
  viewer.scrollIntoView({ block: 'nearest' });
}
