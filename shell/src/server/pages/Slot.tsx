import { createContext, useContext, type ReactNode } from 'react';
import type { SlotContexts, SlotName } from 'contracts';
import { fillProps, SITE_SLOT_FILLS, type SlotFills } from '../slots/slotFills.js';
import { Island } from './Island.js';

/** The slots' islands a page renders with. Default: the site's, from the slices' manifests (`SITE_SLOT_FILLS`); a test may give others. */
export const SlotFillsContext = createContext<SlotFills>(SITE_SLOT_FILLS);

export interface SlotProps<Name extends SlotName> {
  /** The slot. */
  name: Name;
  /** What the slot offers its islands (contracts' `SlotContexts`); their props are taken from it. */
  context: SlotContexts[Name];
  /** Placeholder of its first island, shown where that island cannot render on the server (`Island`'s children). Default none. */
  fallback?: ReactNode;
}

/**
 * A named place of a page that the slices' islands fill (their manifests say which, in what order,
 * with which context fields as props and how they hydrate). Each renders as any island: on the
 * server by its remote's server build with the same isolation, budgets, pinning, preview and canary
 * rules, then hydrated in the browser. A slot nobody fills renders nothing.
 */
export function Slot<Name extends SlotName>({ name, context, fallback }: SlotProps<Name>) {
  const fills = useContext(SlotFillsContext).get(name) ?? [];
  return (
    <>
      {fills.map((fill, index) => (
        <Island key={fill.island} name={fill.island} props={fillProps(fill, context)} {...(fill.className ? { className: fill.className } : {})} {...(fill.hydrate ? { hydrate: fill.hydrate } : {})}>
          {index === 0 ? fallback : null}
        </Island>
      ))}
    </>
  );
}
