/**
 * The banner an editor's curation rule sends with its results (the rule's `metadata`, e.g. the
 * "kpi" rule in `server/search-sets/curations.json`; InstantSearch's `results.userData`). Only a
 * complete one is shown: a title, a text and a link on this site (a path) or to an http(s) address.
 */
export interface CurationBanner {
  title: string;
  text: string;
  url: string;
}

function isShownLink(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//');
  return /^https?:\/\//i.test(url);
}

/** The first complete banner in an answer's `userData`; `undefined` when the answer sends none. */
export function curationBannerOf(results: { userData?: unknown } | null | undefined): CurationBanner | undefined {
  const userData = results?.userData;
  if (!Array.isArray(userData)) return undefined;
  for (const entry of userData) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { title, text, url } = entry as Record<string, unknown>;
    if (typeof title !== 'string' || typeof text !== 'string' || typeof url !== 'string') continue;
    if (title.trim() === '' || !isShownLink(url.trim())) continue;
    return { title: title.trim(), text: text.trim(), url: url.trim() };
  }
  return undefined;
}
