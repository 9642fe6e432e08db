import { createContext, useContext, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ISLAND_ATTRIBUTE, ISLAND_HYDRATE_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, pageFragmentIslandMarker, type IslandHydrateTrigger, type PageFragmentIsland } from 'contracts';

/** Collects the islands of one fragment render, in marker order. */
export class FragmentIslandCollector {
  readonly islands: PageFragmentIsland[] = [];
}

export const FragmentIslandContext = createContext<FragmentIslandCollector | null>(null);

export interface FragmentIslandProps {
  /** `remote/Module`, e.g. `mf-widgets/FileField`. */
  name: string;
  /** JSON props for the server render and the browser mount. Default `{}`. */
  props?: Record<string, unknown>;
  /** Props for the server render only, never written into the page. Default none. */
  serverProps?: Record<string, unknown>;
  /** A `<span>` instead of a `<div>`, for an island inside a sentence. Default false. */
  inline?: boolean;
  /** When the browser hydrates it. Default `immediate`. */
  hydrate?: IslandHydrateTrigger;
  /** Small placeholder, shown when the remote's server render fails. */
  children?: ReactNode;
}

/**
 * A place in the fragment where a remote module renders. The element carries the same attributes
 * as the shell's islands; its content is a marker the shell replaces with the remote's server
 * render (or `children` when that fails), see `PageFragment` in contracts.
 */
export function FragmentIsland({ name, props = {}, serverProps, inline = false, hydrate = 'immediate', children }: FragmentIslandProps) {
  const collector = useContext(FragmentIslandContext);
  if (!collector) throw new Error('FragmentIsland renders only inside renderPageFragment');
  const index = collector.islands.length;
  collector.islands.push({
    name,
    props,
    ...(serverProps ? { serverProps } : {}),
    ...(inline ? { inline } : {}),
    ...(hydrate === 'immediate' ? {} : { hydrate }),
    placeholderHtml: renderToStaticMarkup(<>{children}</>),
  });
  const attributes = {
    [ISLAND_ATTRIBUTE]: name,
    [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props),
    ...(hydrate === 'immediate' ? {} : { [ISLAND_HYDRATE_ATTRIBUTE]: hydrate }),
  };
  const Element = inline ? 'span' : 'div';
  return <Element className={inline ? 'island island--inline' : 'island'} {...attributes} dangerouslySetInnerHTML={{ __html: pageFragmentIslandMarker(index) }} />;
}
