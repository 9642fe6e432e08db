import { DEFAULT_CALL_URLS, examplePageConfig, isSlotName, SLOT_CONTEXT_FIELDS, SLOT_NAMES, type SlotFill, type SlotFillPlaceholder, type SlotName } from 'contracts';
import { SLICES, type SliceManifest } from '@khs/stack/registry';

/** Every slot's islands, in their order. */
export type SlotFills = ReadonlyMap<SlotName, readonly SlotFill[]>;

/**
 * The islands the slices' manifests place in the shell's slots (`remote.slots` in each
 * `slice.json`), checked against contracts' slots: a fill naming a slot the shell does not have,
 * an island its remote does not list, a context field its slot does not offer, or a placeholder
 * naming a call or text the page config does not have is a problem (the shell does not start),
 * naming the file and the field.
 */
export function readSlotFills(slices: readonly SliceManifest[]): { fills: SlotFills; problems: string[] } {
  const problems: string[] = [];
  const fills = new Map<SlotName, SlotFill[]>();
  for (const slice of slices) {
    for (const [index, declared] of (slice.remote?.slots ?? []).entries()) {
      const at = `${slice.name}/slice.json: /remote/slots/${index}`;
      const own = fillProblems(declared, slice.remote!.islands, at);
      problems.push(...own);
      if (own.length > 0 || !isSlotName(declared.slot)) continue;
      const fill: SlotFill = {
        slot: declared.slot,
        island: `${slice.name}/${declared.island}`,
        order: declared.order,
        ...(declared.props ? { props: declared.props } : {}),
        ...(declared.hydrate ? { hydrate: declared.hydrate } : {}),
        ...(declared.className ? { className: declared.className } : {}),
        ...(declared.placeholder ? { placeholder: declared.placeholder as SlotFillPlaceholder } : {}),
      };
      fills.set(fill.slot, [...(fills.get(fill.slot) ?? []), fill]);
    }
  }
  for (const list of fills.values()) list.sort((a, b) => a.order - b.order || a.island.localeCompare(b.island));
  return { fills, problems };
}

type DeclaredFill = NonNullable<NonNullable<SliceManifest['remote']>['slots']>[number];

function fillProblems(declared: DeclaredFill, islands: readonly string[], at: string): string[] {
  if (!isSlotName(declared.slot)) return [`${at}/slot "${declared.slot}" is not a slot of the shell (${SLOT_NAMES.join(', ')})`];
  const problems: string[] = [];
  if (!islands.includes(declared.island)) problems.push(`${at}/island "${declared.island}" is not one of the remote's islands (${islands.join(', ')})`);
  const offered = SLOT_CONTEXT_FIELDS[declared.slot] as readonly string[];
  for (const [prop, field] of Object.entries(declared.props ?? {})) {
    if (!offered.includes(field)) problems.push(`${at}/props/${prop}: the ${declared.slot} slot offers no context field "${field}" (${offered.join(', ') || 'none'})`);
  }
  problems.push(...placeholderProblems(declared.placeholder, `${at}/placeholder/link`));
  return problems;
}

/** The page config's texts, by name (every text of contracts' `I18nTexts`). */
const I18N_TEXTS = Object.keys(examplePageConfig().i18n);

function placeholderProblems(placeholder: DeclaredFill['placeholder'], at: string): string[] {
  if (!placeholder) return [];
  const { call, text } = placeholder.link;
  return [
    ...(Object.hasOwn(DEFAULT_CALL_URLS, call) ? [] : [`${at}/call "${call}" is not a call of contracts' CallUrls`]),
    ...(I18N_TEXTS.includes(text) ? [] : [`${at}/text "${text}" is not a text of contracts' I18nTexts`]),
  ];
}

/** An island's props from its slot's context, as its fill maps them. */
export function fillProps(fill: SlotFill, context: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fill.props ?? {}).map(([prop, field]) => [prop, (context as Record<string, unknown>)[field]]));
}

/**
 * The site's slot fills, from the slices' manifests as the registry discovered them at start (the
 * shell's configuration refuses to start when they have problems, `readShellConfig`).
 */
export const SITE_SLOT_FILLS: SlotFills = readSlotFills(SLICES).fills;
