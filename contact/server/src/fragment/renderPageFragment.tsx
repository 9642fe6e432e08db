import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PageFragment } from 'contracts';
import { FragmentIslandCollector, FragmentIslandContext } from './FragmentIsland.js';

/** Renders a page's main content as a `PageFragment` for the shell to wrap in the site layout. */
export function renderPageFragment(content: ReactElement, page: { title: string; pageClass: string; styles?: string }): PageFragment {
  const collector = new FragmentIslandCollector();
  const html = renderToStaticMarkup(<FragmentIslandContext.Provider value={collector}>{content}</FragmentIslandContext.Provider>);
  return { title: page.title, pageClass: page.pageClass, html, islands: collector.islands, ...(page.styles ? { styles: page.styles } : {}) };
}
