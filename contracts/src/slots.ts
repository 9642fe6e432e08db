// Extension slots: the named places of the shell's pages that a slice's islands fill. The shell
// declares each slot and the small context it offers; a slice's manifest (`slice.json`,
// `remote.slots`) says which of its islands fills which slot, in what order, with which context
// fields as props and how it hydrates. Adding a slot or a context field is a minor version; removing
// or renaming one is a major.
import type { CallUrls, I18nTexts } from './config.js';
import type { IslandHydrateTrigger } from './island.js';

/** An article as a slot offers it. */
export interface ArticleSlotContext {
  /** The article's id (its address is `/articles/<id>`). */
  articleId: string;
  title: string;
  /** Its topics, in the article's order. */
  topics: readonly string[];
}

/**
 * A page a slice declares (its manifest's `remote.pages`), as the page's main slot offers it
 * (since 1.8.0).
 */
export interface SlicePageSlotContext {
  /** The page's path, e.g. `/search`. */
  path: string;
  /**
   * The value of the query parameter the page declares (`queryParam` in the manifest), cut to its
   * `queryMaxLength`; `''` when the page declares none or the address has none.
   */
  query: string;
}

/** Every slot of the shell's pages and the context it offers its islands. */
export interface SlotContexts {
  /**
   * Every page's header: the site's search box. The shell's plain search form (a GET form to
   * `calls.searchPage`) stands in its first island's place until it renders, and alone when
   * nobody fills it. Context: the page's search query (empty when none). Since 1.8.0.
   */
  'header.search': { query: string };
  /** Every page's header, after the search box (site-wide actions: links, counts). Since 1.8.0. */
  'header.actions': Record<string, never>;
  /** Every page's footer, after the site's own links. Since 1.8.0. */
  'footer.links': Record<string, never>;
  /** The article page's header, after the meta line (actions on the article). */
  'article.header.actions': ArticleSlotContext;
  /** The article page, after the article's body. */
  'article.after-body': ArticleSlotContext;
  /** An article teaser (home page, lists), after its meta line. */
  'teaser.actions': ArticleSlotContext;
  /** The end of every page's body, after the footer: page-wide enhancements with no place of their own. */
  'page.end': Record<string, never>;
  /** The search page's main content, under its heading (since 1.8.0). */
  'search.main': SlicePageSlotContext;
  /** The watchlist page's main content, under its heading (since 1.8.0). */
  'watchlist.main': SlicePageSlotContext;
}

/** A slot's name. */
export type SlotName = keyof SlotContexts;

/** The context fields each slot offers (what a manifest may map to an island's props). */
export const SLOT_CONTEXT_FIELDS: { readonly [Slot in SlotName]: readonly (keyof SlotContexts[Slot])[] } = {
  'header.search': ['query'],
  'header.actions': [],
  'footer.links': [],
  'article.header.actions': ['articleId', 'title', 'topics'],
  'article.after-body': ['articleId', 'title', 'topics'],
  'teaser.actions': ['articleId', 'title', 'topics'],
  'page.end': [],
  'search.main': ['path', 'query'],
  'watchlist.main': ['path', 'query'],
};

/** Every slot's name. */
export const SLOT_NAMES = Object.keys(SLOT_CONTEXT_FIELDS) as SlotName[];

/** Whether `value` names a slot of the shell. */
export function isSlotName(value: unknown): value is SlotName {
  return typeof value === 'string' && Object.hasOwn(SLOT_CONTEXT_FIELDS, value);
}

/** One island placed in a slot, as a slice's manifest declares it. */
export interface SlotFill {
  slot: SlotName;
  /** The island, `remote/Module` (a module the slice's remote exposes). */
  island: string;
  /** Place among the slot's islands, smallest first (ties: by island name). */
  order: number;
  /** The island's props: prop name → the slot context field it takes its value from. Default none. */
  props?: Readonly<Record<string, string>>;
  /** When the browser hydrates it. Default `immediate`. */
  hydrate?: IslandHydrateTrigger;
  /** Class of the island's element (the slot's layout places it by it). Default none. */
  className?: string;
  /**
   * What the page shows in the island's place while its remote cannot render it (server render
   * failed, or server islands off), before the browser mounts it. Default: nothing. Since 1.8.0.
   */
  placeholder?: SlotFillPlaceholder;
}

/**
 * A fill's placeholder: a plain link, its address and text read from the page config
 * (`calls[call]`, `i18n[text]`), so it follows the shell's call paths and texts. Since 1.8.0.
 */
export interface SlotFillPlaceholder {
  link: { call: keyof CallUrls; text: keyof I18nTexts };
}
