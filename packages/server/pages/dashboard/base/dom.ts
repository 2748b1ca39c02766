// Data reaches the page only as text: el() builds elements and sets their text with textContent,
// never through HTML strings, so a device id or an extra like "<img onerror=...>" stays text.

/** A child of el() and fill(): an element, text (set as a text node), or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Properties el() sets: the element's own, `dataset` entries, and `on<event>` listeners. */
export type Props<K extends keyof HTMLElementTagNameMap> = {
  [P in keyof HTMLElementTagNameMap[K]]?: HTMLElementTagNameMap[K][P] | null;
} & {
  dataset?: Record<string, string>;
  [listener: `on${string}`]: unknown;
};

/** el('td', { className: 'num', title: 'x' }, 'text', child) */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Partial<Props<K>> | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on')) element.addEventListener(key.slice(2), value as EventListener);
    else (element as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An element the page's HTML holds (index.html): its absence is a broken page, not a case to handle. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Replaces an element's children (text or elements) in one go. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren(
    ...children
      .filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false)
      .map((c) => (typeof c === 'number' ? String(c) : c)),
  );
}

/**
 * Shows text in the JSON viewer (a record, a quarantined record, a log) and brings it into view:
 * on a phone it sits below the records table in the sheet, off-screen unless scrolled to.
 */
export function showInViewer(text: string): void {
  const viewer = $('record-json');
  viewer.hidden = false;
  viewer.textContent = text;
  viewer.scrollTop = 0;
  viewer.scrollIntoView({ block: 'nearest' });
}
