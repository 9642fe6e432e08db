import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { DialogTrigger } from '../markup/Dialog.js';
import { readStringProps } from './stringProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The markup depends on the props only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/**
 * A link to a dialog of the page (`#<dialogId>`), which PageWidgets turns into a button opening
 * it. Inline, so it can sit inside a sentence. Server only; props `{ dialogId, label }`.
 */
export const render: IslandRender = async (props) => {
  const { dialogId, label } = readStringProps('mf-widgets/DialogTrigger', props, ['dialogId', 'label']);
  return { html: renderToString(<DialogTrigger dialogId={dialogId}>{label}</DialogTrigger>) };
};
