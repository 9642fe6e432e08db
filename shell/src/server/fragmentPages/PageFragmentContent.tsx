import { useContext } from 'react';
import { PAGE_FRAGMENT_ISLAND_MARKER_PATTERN, type PageFragment } from 'contracts';
import { IslandCollectorContext } from '../federation/islandCollector.js';

/**
 * A team service's page content inside the shell's layout. Its islands go to the same island
 * renderer as the shell's own (`streamPageWithIslands`): each marker becomes the remote's server
 * render, or the service's placeholder when that fails (or server islands are off).
 */
export function PageFragmentContent({ fragment }: { fragment: PageFragment }) {
  const collector = useContext(IslandCollectorContext);
  const html = fragment.html.replace(PAGE_FRAGMENT_ISLAND_MARKER_PATTERN, (_marker, index: string) => {
    const island = fragment.islands[Number(index)];
    if (!island) return '';
    if (!collector) return island.placeholderHtml;
    const props = island.serverProps ? { ...island.props, ...island.serverProps } : island.props;
    return collector.add({ name: island.name, props }, { rawHtml: island.placeholderHtml });
  });
  return <div className="page-fragment" dangerouslySetInnerHTML={{ __html: html }} />;
}
