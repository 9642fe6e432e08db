import type { ReactNode } from 'react';
import { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from 'contracts';

export interface IslandProps {
  /** `remote/Module`, e.g. `mf-watchlist/WatchlistButton`. */
  name: string;
  /** JSON props handed to the module's mount function. Default `{}`. */
  props?: Record<string, unknown>;
  className?: string;
  /** Server-rendered fallback, kept when the remote cannot load. */
  children?: ReactNode;
}

/** A place where a remote module mounts; its children stay if the remote fails. */
export function Island({ name, props = {}, className, children }: IslandProps) {
  const attributes = { [ISLAND_ATTRIBUTE]: name, [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props) };
  return (
    <div className={className ? `island ${className}` : 'island'} {...attributes}>
      {children}
    </div>
  );
}
