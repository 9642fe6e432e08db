import { useContext, type ReactNode } from 'react';
import { ISLAND_ATTRIBUTE, ISLAND_HYDRATE_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, type IslandHydrateTrigger } from 'contracts';
import { IslandCollectorContext } from '../federation/islandCollector.js';

export interface IslandProps {
  /** `remote/Module`: a module the remote exposes. */
  name: string;
  /** JSON props handed to the module's server render and browser mount. Default `{}`. */
  props?: Record<string, unknown>;
  /**
   * Props for the server render only, never written into the page (e.g. an article's text for
   * markup the browser only enhances). Merged over `props`. Default none.
   */
  serverProps?: Record<string, unknown>;
  className?: string;
  /** Renders a `<span>` instead of a `<div>`, for an island inside a sentence (a link). Default false. */
  inline?: boolean;
  /**
   * When the browser hydrates the island (see `ISLAND_HYDRATE_ATTRIBUTE` in contracts): `visible`
   * for below-the-fold content, `idle` for page-wide enhancements. Default `immediate`.
   */
  hydrate?: IslandHydrateTrigger;
  /**
   * Small placeholder, shown only when the remote's server render fails (or server islands are
   * off); the browser then mounts the island over it. The island's real markup is the remote's.
   */
  children?: ReactNode;
}

/**
 * A place where a remote module renders: on the server by the remote's server build (when the
 * page is rendered with `renderPageWithIslands`), then hydrated in the browser.
 */
export function Island({ name, props = {}, serverProps, className, inline = false, hydrate = 'immediate', children }: IslandProps) {
  const collector = useContext(IslandCollectorContext);
  const attributes = {
    [ISLAND_ATTRIBUTE]: name,
    [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props),
    ...(hydrate === 'immediate' ? {} : { [ISLAND_HYDRATE_ATTRIBUTE]: hydrate }),
  };
  const classes = [inline ? 'island island--inline' : 'island', className].filter(Boolean).join(' ');
  const Element = inline ? 'span' : 'div';
  if (collector) {
    return <Element className={classes} {...attributes} dangerouslySetInnerHTML={{ __html: collector.add({ name, props: serverProps ? { ...props, ...serverProps } : props, ...(hydrate === 'immediate' ? {} : { hydrate }) }, children) }} />;
  }
  return (
    <Element className={classes} {...attributes}>
      {children}
    </Element>
  );
}
