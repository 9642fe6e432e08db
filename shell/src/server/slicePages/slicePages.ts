import { isSlotName, parseIslandName, SLOT_CONTEXT_FIELDS, type SlicePageSlotContext, type SlotName } from 'contracts';
import { SLICES, type SliceManifest, type SlicePageDeclaration } from '@khs/stack/registry';
import { SITE_SLOT_FILLS, type SlotFills } from '../slots/slotFills.js';

/** Longest `query` a page offers its slot when its manifest sets no `queryMaxLength`. */
export const DEFAULT_PAGE_QUERY_MAX_LENGTH = 512;

/** The context fields of a page's main slot: a slot offering anything else cannot be a page's. */
const PAGE_SLOT_FIELDS: readonly (keyof SlicePageSlotContext)[] = ['path', 'query'];

/** A page a slice declares, checked: the shell serves it at `path` (`SlicePage`, `slicePageRoutes`). */
export interface SlicePage extends Omit<SlicePageDeclaration, 'slot'> {
  /** The slice that declares it. */
  slice: string;
  slot: SlotName;
  queryMaxLength: number;
  /** Remotes of the islands that hydrate at once in the page's slot: preloaded in its head. */
  firstViewRemotes: string[];
}

/**
 * The pages the slices' manifests declare (`remote.pages`), checked: each names a slot of the
 * shell that offers a page's context (`path`, `query`), a path no other page takes, and a query
 * form only with a query parameter. A problem names the file and the field (the shell does not
 * start).
 */
export function readSlicePages(slices: readonly SliceManifest[], fills: SlotFills = SITE_SLOT_FILLS): { pages: SlicePage[]; problems: string[] } {
  const problems: string[] = [];
  const pages: SlicePage[] = [];
  const paths = new Map<string, string>();
  for (const slice of slices) {
    for (const [index, declared] of (slice.remote?.pages ?? []).entries()) {
      const at = `${slice.name}/slice.json: /remote/pages/${index}`;
      const own = pageProblems(declared, at);
      const taken = paths.get(declared.path);
      if (taken) own.push(`${at}/path "${declared.path}" is already ${taken}'s page`);
      problems.push(...own);
      if (own.length > 0 || !isSlotName(declared.slot)) continue;
      paths.set(declared.path, slice.name);
      const slotFills = fills.get(declared.slot) ?? [];
      const firstViewRemotes = [...new Set(slotFills.filter((fill) => (fill.hydrate ?? 'immediate') === 'immediate').map((fill) => parseIslandName(fill.island)?.remote ?? ''))].filter(Boolean);
      pages.push({ ...declared, slice: slice.name, slot: declared.slot, queryMaxLength: declared.queryMaxLength ?? DEFAULT_PAGE_QUERY_MAX_LENGTH, firstViewRemotes });
    }
  }
  return { pages, problems };
}

function pageProblems(declared: SlicePageDeclaration, at: string): string[] {
  if (!isSlotName(declared.slot)) return [`${at}/slot "${declared.slot}" is not a slot of the shell`];
  const offered = SLOT_CONTEXT_FIELDS[declared.slot] as readonly string[];
  const problems: string[] = [];
  if (offered.length !== PAGE_SLOT_FIELDS.length || !PAGE_SLOT_FIELDS.every((field) => offered.includes(field))) {
    problems.push(`${at}/slot "${declared.slot}" is not a page's slot (it offers ${offered.join(', ') || 'nothing'}, a page's offers ${PAGE_SLOT_FIELDS.join(', ')})`);
  }
  if (declared.fallback?.queryForm && !declared.queryParam) problems.push(`${at}/fallback/queryForm needs /queryParam (the form's field)`);
  return problems;
}

/** The context a page offers its slot for a request's query string. */
export function slicePageContext(page: SlicePage, query: Record<string, unknown>): SlicePageSlotContext {
  const value = page.queryParam ? query[page.queryParam] : undefined;
  return { path: page.path, query: typeof value === 'string' ? value.slice(0, page.queryMaxLength) : '' };
}

/** The site's pages from the slices' manifests (the shell's configuration refuses to start when they have problems). */
export const SITE_SLICE_PAGES: readonly SlicePage[] = readSlicePages(SLICES).pages;
