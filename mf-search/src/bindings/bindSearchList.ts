/**
 * The server-rendered search list, bound without React or InstantSearch: what a visitor does
 * before the full island is there is kept (typed text stays in the box, clicks on the list's
 * controls are held for the full island to replay) and starts loading it. The selectors are the
 * React components' markup (`SearchListScreen`, `SearchCombobox`, `InfiniteHitList`, `LoadMore`,
 * `Teaser`); `searchListBinding.test.tsx` holds them to it.
 */

import { createKeystrokeClock } from '../autocomplete/typedAt.js';

/** Selectors of the list's server markup the binding reads. */
export const SEARCH_LIST_MARKUP = {
  list: '.khs-search-list',
  form: 'form.khs-search-list__form',
  input: 'input[role="combobox"]',
  hits: '.khs-search-hits',
  hitList: '.khs-search-hits__list',
  teaser: '.khs-search-teaser[data-object-id]',
  teaserLink: 'a.khs-search-teaser__link',
  loadMore: 'a.khs-search-load-more__button[href]',
  progress: 'progress.khs-search-load-more__progress',
  /** Controls whose click changes the search (filters, chips, tags, show more/previous). */
  control: 'button, input[type="checkbox"]',
} as const;

/** Attribute (on the hits block) and property that keep room for the next page's hits. */
export const PENDING_HITS_ATTRIBUTE = 'data-pending-hits';
export const PENDING_HITS_PROPERTY = '--khs-search-pending-hits';

/** An action the visitor took before the full island was there, for it to replay. */
export type HeldAction =
  | { kind: 'click'; target: HTMLElement }
  | { kind: 'load-more'; link: HTMLAnchorElement }
  | { kind: 'submit'; form: HTMLFormElement };

/**
 * What the visitor did: `typing` (a press, touch or focus on the box, a key or input in it: the
 * visitor is about to search) or `action` (a control or load more pressed, Enter: held until the
 * full island replays it). Both start loading the full island at once.
 */
export type SearchListInteraction = 'typing' | 'action';

export interface SearchListBindingOptions {
  /** Each interaction until the binding is released: the caller loads the full island. */
  onInteraction(kind: SearchListInteraction): void;
  /** A server-rendered hit was opened (`position` 1-based in the whole list). */
  onHitOpened(objectID: string, position: number): void;
  /** Hits per page: how many hits a load more brings at most. */
  hitsPerPage: number;
}

export interface SearchListBinding {
  /** The box (typed text lives there until the full island takes it over). */
  readonly input: HTMLInputElement;
  /** Object ids of the server-rendered hits, in list order. */
  hitIds(): string[];
  /**
   * What the visitor typed into the box, as of the last keystroke (`null`: nothing). Recorded at
   * each input, because hydration puts the value React rendered back into the box. `at` is when
   * the visitor pressed that key (its keydown's `timeStamp`, `autocomplete/typedAt.ts`), not when
   * this binding saw it: keys a long task held back keep their own times.
   */
  typed(): { value: string; selectionStart: number | null; selectionEnd: number | null; at: number } | null;
  /**
   * Keeps typing in the box from the full island while it hydrates: key and input events stop at
   * the island element (capture), so React's listeners, attached when hydration starts, never see
   * them. A discrete event reaching a root that is still hydrating makes React hydrate the whole
   * list at once inside that event: a long task under the visitor's finger (the INP). The text
   * stays in the native box and is handed over after hydration (`typed()`). Until `release()`.
   */
  shieldTyping(): void;
  /** Stops listening; returns what the visitor did meanwhile, in order. */
  release(): HeldAction[];
  /** Removes the room kept for the next page (the full island keeps its own from then on). */
  clearPendingHits(): void;
}

/** A plain primary click (a modifier opens a link in a new tab or window: that stays native). */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Binds the list's server markup in `element`; `null` when it is not the list's markup (the
 * caller then loads the full island at once). Listens on `element` in the capture phase, so a
 * held click never reaches a handler below (nor React's, while it hydrates).
 */
export function bindSearchList(element: HTMLElement, options: SearchListBindingOptions): SearchListBinding | null {
  const list = element.querySelector<HTMLElement>(SEARCH_LIST_MARKUP.list);
  const form = list?.querySelector<HTMLFormElement>(SEARCH_LIST_MARKUP.form);
  const input = form?.querySelector<HTMLInputElement>(SEARCH_LIST_MARKUP.input);
  if (!list || !form || !input) return null;
  const held: HeldAction[] = [];
  let typed: ReturnType<SearchListBinding['typed']> = null;
  let shielded = false;
  const hits = () => [...list.querySelectorAll<HTMLElement>(`${SEARCH_LIST_MARKUP.hitList} ${SEARCH_LIST_MARKUP.teaser}`)];
  const hold = (action: HeldAction) => {
    held.push(action);
    element.setAttribute('aria-busy', 'true');
    options.onInteraction('action');
  };
  // Room for the next page at the click (within the 500 ms after an input that layout-shift
  // scoring forgives): the link and "viewing X of Y" move once, now, not when the answer arrives.
  const keepRoomForNextPage = () => {
    const block = list.querySelector<HTMLElement>(SEARCH_LIST_MARKUP.hits);
    const progress = list.querySelector<HTMLProgressElement>(SEARCH_LIST_MARKUP.progress);
    if (!block || !progress) return;
    const coming = Math.max(0, Math.min(options.hitsPerPage, progress.max - progress.value));
    block.setAttribute(PENDING_HITS_ATTRIBUTE, String(coming));
    block.style.setProperty(PENDING_HITS_PROPERTY, String(coming));
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const teaserLink = target?.closest<HTMLAnchorElement>(SEARCH_LIST_MARKUP.teaserLink);
    const teaser = teaserLink?.closest<HTMLElement>(SEARCH_LIST_MARKUP.teaser);
    if (teaser && list.contains(teaser)) {
      options.onHitOpened(teaser.dataset.objectId!, hits().indexOf(teaser) + 1);
      return;
    }
    const loadMore = target?.closest<HTMLAnchorElement>(SEARCH_LIST_MARKUP.loadMore);
    if (loadMore && list.contains(loadMore)) {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (held.some((action) => action.kind === 'load-more')) return;
      keepRoomForNextPage();
      hold({ kind: 'load-more', link: loadMore });
      return;
    }
    const control = target?.closest<HTMLElement>(SEARCH_LIST_MARKUP.control);
    if (control && list.contains(control) && !control.matches(':disabled')) {
      event.preventDefault();
      event.stopImmediatePropagation();
      hold({ kind: 'click', target: control });
    }
  };
  const onSubmit = (event: SubmitEvent) => {
    if (event.target !== form) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.some((action) => action.kind === 'submit')) hold({ kind: 'submit', form });
  };
  const keystrokes = createKeystrokeClock();
  const onFieldActivity = (event: Event) => {
    if (event.target !== input) return;
    if (event.type === 'keydown') keystrokes.pressed(event);
    else if (event.type === 'keyup') keystrokes.released();
    else if (event.type === 'input') typed = { value: input.value, selectionStart: input.selectionStart, selectionEnd: input.selectionEnd, at: keystrokes.typedAt(event) };
    if (shielded && event.type !== 'focusin') event.stopImmediatePropagation();
    if (event.type === 'focusin' || event.type === 'input' || event.type === 'keydown') options.onInteraction('typing');
  };
  /**
   * Events of the box only stopped while shielded (the default action, the text, stays).
   * `textInput` too: Chromium's legacy text event, which React listens to (for `onBeforeInput`);
   * reaching the hydrating root it made React hydrate the whole list inside the keystroke.
   */
  const SHIELDED_ONLY = ['keyup', 'keypress', 'textInput', 'beforeinput', 'compositionstart', 'compositionupdate', 'compositionend'] as const;
  // A press on a control starts the load about 100 ms before its click; a tap on the box before
  // its focus (a visitor taps, then types).
  const onPointerDown = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target === input) options.onInteraction('typing');
    else if (target?.closest(`${SEARCH_LIST_MARKUP.loadMore}, ${SEARCH_LIST_MARKUP.control}`) && list.contains(target)) options.onInteraction('action');
  };

  element.addEventListener('click', onClick, true);
  element.addEventListener('submit', onSubmit, true);
  element.addEventListener('focusin', onFieldActivity, true);
  element.addEventListener('input', onFieldActivity, true);
  element.addEventListener('keydown', onFieldActivity, true);
  for (const type of SHIELDED_ONLY) element.addEventListener(type, onFieldActivity, true);
  element.addEventListener('pointerdown', onPointerDown, true);
  element.addEventListener('touchstart', onPointerDown, { capture: true, passive: true });
  // Focus that came before the binding (autofocus, an early tab) counts as a start too.
  if (input.ownerDocument.activeElement === input) options.onInteraction('typing');

  return {
    input,
    hitIds: () => hits().map((teaser) => teaser.dataset.objectId!),
    typed: () => typed,
    shieldTyping() {
      shielded = true;
    },
    release() {
      shielded = false;
      for (const type of SHIELDED_ONLY) element.removeEventListener(type, onFieldActivity, true);
      element.removeEventListener('click', onClick, true);
      element.removeEventListener('submit', onSubmit, true);
      element.removeEventListener('focusin', onFieldActivity, true);
      element.removeEventListener('input', onFieldActivity, true);
      element.removeEventListener('keydown', onFieldActivity, true);
      element.removeEventListener('pointerdown', onPointerDown, true);
      element.removeEventListener('touchstart', onPointerDown, true);
      element.removeAttribute('aria-busy');
      return held.splice(0);
    },
    clearPendingHits() {
      const block = list.querySelector<HTMLElement>(SEARCH_LIST_MARKUP.hits);
      block?.removeAttribute(PENDING_HITS_ATTRIBUTE);
      block?.style.removeProperty(PENDING_HITS_PROPERTY);
      if (block?.getAttribute('style') === '') block.removeAttribute('style');
    },
  };
}
