import { PAGE_CONFIG_ELEMENT_ID, type PageConfig } from 'contracts';

/** Reads the page config the server embedded; null (logged) when it is missing or malformed. */
export function readPageConfig(doc: Document): PageConfig | null {
  const element = doc.getElementById(PAGE_CONFIG_ELEMENT_ID);
  if (!element?.textContent) {
    console.error('[shell] the page has no config; islands keep their server markup');
    return null;
  }
  try {
    const config = JSON.parse(element.textContent) as PageConfig;
    if (!Array.isArray(config.remotes) || typeof config.calls !== 'object' || typeof config.i18n !== 'object') {
      throw new Error('missing remotes, calls or i18n');
    }
    return config;
  } catch (error) {
    console.error('[shell] the page config is malformed; islands keep their server markup', error);
    return null;
  }
}
