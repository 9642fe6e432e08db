import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { PasswordField } from '../markup/PasswordField.js';
import { readStringProps } from './stringProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The markup depends on the props only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/**
 * A password input of a plain form (e.g. the contact form's request password), which PageWidgets
 * enhances with a show/hide toggle. Server only (props: `PasswordFieldProps`, server-only in the shell).
 */
export const render: IslandRender = async (props) => {
  const fields = readStringProps('mf-widgets/PasswordField', props, ['id', 'name', 'label'], ['autoComplete', 'hint', 'error']);
  return { html: renderToString(<PasswordField {...fields} />) };
};
