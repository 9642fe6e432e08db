import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { FileField } from '../markup/FileField.js';
import { readStringProps } from './stringProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The markup depends on the props only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/**
 * A file input of a plain form (e.g. the contact form's attachment), which PageWidgets enhances
 * with the chosen file's name. Server only (props: `FileFieldProps`, server-only in the shell).
 */
export const render: IslandRender = async (props) => {
  const fields = readStringProps('mf-widgets/FileField', props, ['id', 'name', 'label'], ['accept', 'emptyText', 'hint', 'error']);
  return { html: renderToString(<FileField {...fields} />) };
};
