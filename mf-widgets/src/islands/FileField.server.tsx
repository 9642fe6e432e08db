import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender } from 'contracts';
import { FileField } from '../markup/FileField.js';
import { readStringProps } from './stringProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The markup depends on the props only: the shell may reuse it for a minute. */
export const cacheTtlMs = 60_000;

/**
 * A file input of a plain form (e.g. the contact form's attachment), which PageWidgets enhances
 * with the chosen file's name. Server only (props: `FileFieldProps`, server-only in the shell).
 */
export const render: IslandRender = async (props) => {
  const fields = readStringProps('mf-widgets/FileField', props, ['id', 'name', 'label'], ['accept', 'emptyText', 'hint', 'error']);
  return { html: renderToString(<FileField {...fields} />) };
};
