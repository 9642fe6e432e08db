import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { Dialog } from '../markup/Dialog.js';
import { readStringProps } from './stringProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The markup depends on the props only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/**
 * A dialog whose content the page supplies as trusted HTML (`bodyHtml`, e.g. the contact page's
 * privacy notice): an in-page section without script, a modal once PageWidgets enhances it.
 * Server only; props `{ id, title, bodyHtml, variant?, closeLabel? }`, server-only in the shell.
 */
export const render: IslandRender = async (props) => {
  const { id, title, bodyHtml, variant, closeLabel } = readStringProps('mf-widgets/Dialog', props, ['id', 'title', 'bodyHtml'], ['variant', 'closeLabel']);
  if (variant !== undefined && variant !== 'generic' && variant !== 'navigation') {
    throw new TypeError(`mf-widgets/Dialog: variant must be "generic" or "navigation", not "${variant}"`);
  }
  return { html: renderToString(<Dialog id={id} title={title} variant={variant} closeLabel={closeLabel} bodyHtml={bodyHtml} />) };
};
