import { createContext, useContext } from 'react';
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
}

/**
 * A named place of a page that the slices' islands fill (their manifests say which, in what order,
 * with which context fields as props, how they hydrate and what stands in their place while their
 * remote cannot render). Each renders as any island: on the server by its remote's server build
 * (with what its slice reads itself, `IslandServerModule.serverProps`) under the same isolation,
 * budgets, pinning, preview and canary rules, then hydrated in the browser. A slot nobody fills
 * renders nothing.
 */
export function Slot<Name extends SlotName>({ name, context }: SlotProps<Name>) {
  const fills = useContext(SlotFillsContext).get(name) ?? [];
  const config = useContext(SlotPageConfigContext);
  return (
    <>
      {fills.map((fill) => (
        <Island key={fill.island} name={fill.island} props={fillProps(fill, context)} {...(fill.className ? { className: fill.className } : {})} {...(fill.hydrate ? { hydrate: fill.hydrate } : {})}>
          {config ? <FillPlaceholder fill={fill} config={config} /> : null}
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
