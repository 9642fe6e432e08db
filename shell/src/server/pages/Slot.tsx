import { createContext, useContext, type ReactNode } from 'react';
import type { PageConfig, SlotContexts, SlotFill, SlotName } from 'contracts';
import { fillProps, SITE_SLOT_FILLS, type SlotFills } from '../slots/slotFills.js';
import { Island } from './Island.js';

/** The slots' islands a page renders with. Default: the site's, from the slices' manifests (`SITE_SLOT_FILLS`); a test may give others. */
export const SlotFillsContext = createContext<SlotFills>(SITE_SLOT_FILLS);

/** The page config the fills' placeholders read their links from (`Layout` provides it). Default none: no placeholders. */
export const SlotPageConfigContext = createContext<PageConfig | null>(null);

export interface SlotProps<Name extends SlotName> {
  /** The slot. */
  name: Name;
  /** What the slot offers its islands (contracts' `SlotContexts`); their props are taken from it. */
  context: SlotContexts[Name];
  /**
   * The page's own content for the place: shown alone when nobody fills the slot, else as the
   * first island's placeholder (unless its fill declares one). Default none.
   */
  children?: ReactNode;
}

/**
 * A named place of a page that the slices' islands fill (their manifests say which, in what order,
 * with which context fields as props, how they hydrate and what stands in their place while their
 * remote cannot render). Each renders as any island: on the server by its remote's server build
 * (with what its slice reads itself, `IslandServerModule.serverProps`) under the same isolation,
 * budgets, pinning, preview and canary rules, then hydrated in the browser. A slot nobody fills
 * renders nothing (or the page's own content for the place, `children`).
 */
export function Slot<Name extends SlotName>({ name, context, children }: SlotProps<Name>) {
  const fills = useContext(SlotFillsContext).get(name) ?? [];
  const config = useContext(SlotPageConfigContext);
  if (fills.length === 0) return <>{children}</>;
  return (
    <>
      {fills.map((fill, index) => (
        <Island key={fill.island} name={fill.island} props={fillProps(fill, context)} {...(fill.className ? { className: fill.className } : {})} {...(fill.hydrate ? { hydrate: fill.hydrate } : {})}>
          {fill.placeholder && config ? <FillPlaceholder fill={fill} config={config} /> : index === 0 ? children : null}
        </Island>
      ))}
    </>
  );
}

/** A fill's placeholder (`SlotFill.placeholder`): a plain link from the page config, or nothing. */
function FillPlaceholder({ fill, config }: { fill: SlotFill; config: PageConfig }) {
  const link = fill.placeholder?.link;
  return link ? <a href={config.calls[link.call]}>{config.i18n[link.text]}</a> : null;
}
