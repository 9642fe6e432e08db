// The components' markup, built without React for an island whose element holds none (its server
// render failed, or the standalone page): in its first, unbound state (not saved, count 0), as the
// server renders it. `bindingsMatchComponents.test.tsx` holds it to the React components.

const SVG_NS = 'http://www.w3.org/2000/svg';

function element<K extends keyof HTMLElementTagNameMap>(document: Document, tag: K, attributes: Record<string, string>, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** The `WatchlistButton` component's markup, not saved, its button disabled until bound. */
export function watchlistButtonMarkup(document: Document, addLabel: string): HTMLElement {
  const icon = document.createElementNS(SVG_NS, 'svg');
  for (const [name, value] of Object.entries({ 'aria-hidden': 'true', focusable: 'false', width: '16', height: '16', viewBox: '0 0 24 24' })) icon.setAttribute(name, value);
  const path = document.createElementNS(SVG_NS, 'path');
  for (const [name, value] of Object.entries({ d: 'M6 3h12v18l-6-4-6 4z', fill: 'none', stroke: 'currentColor', 'stroke-width': '2' })) path.setAttribute(name, value);
  icon.append(path);
  return element(
    document,
    'span',
    { class: 'khs-watchlist-button' },
    element(
      document,
      'button',
      { type: 'button', class: 'khs-watchlist-button__toggle', 'aria-pressed': 'false', 'data-saved': 'false', disabled: '' },
      icon,
      element(document, 'span', {}, addLabel),
    ),
    element(document, 'span', { role: 'status', class: 'khs-watchlist-button__status' }),
  );
}

/** The `WatchlistLink` component's markup with a count of 0. */
export function watchlistLinkMarkup(document: Document, href: string, label: string): HTMLElement {
  return element(
    document,
    'a',
    { class: 'khs-watchlist-link', href },
    element(document, 'span', {}, label),
    element(document, 'span', { class: 'khs-watchlist-link__badge', 'data-count': '0', 'aria-hidden': 'true' }, '0'),
    element(document, 'span', { class: 'khs-watchlist-visually-hidden' }, ' (0)'),
  );
}
