/**
 * What a reader does to an island before it is hydrated (its remote still loading, or not asked
 * for yet because the island waits for its trigger) is kept, not lost: the server markup looks
 * usable, so a reader may press a button that has no handler yet, or type into a field that
 * hydration would reset to its rendered value.
 *
 * - **Clicks** are held (no default action, no page handler) and replayed once the island
 *   settled: on the hydrated node (hydration reuses the server's nodes), or, when the island
 *   failed and got its fallback markup back, on the node at the same place in it, where the
 *   browser's own behaviour (a link, a form's submit) then runs. Enter and Space on a control
 *   arrive as clicks too.
 * - **Enter** in a one-line field is held the same way and replayed (to the component, else as
 *   the form's submission), after the field got the reader's text back.
 * - **Field edits** (text typed, a select changed) stay in the field as the reader makes them; once
 *   the island settled, a field that no longer holds the reader's value gets it back, announced
 *   with an `input` event so the hydrated component's change handler sees it.
 * - **The reader's next key** in a field the hydration reset meanwhile acts on the reader's text:
 *   the field gets it back before the key lands, so typing "lea", a reset, then "d" makes "lead",
 *   not "d" (on a busy machine the reset may come between two keys). Until the reader's first key
 *   or pointer press after the release: from then on the hydrated component owns the value.
 */
import { applyReaderValue, clickableElement, editableField, nodeAt, pathFrom, pressEnter, type EditableField } from './earlyInteractionDom.js';

export { nodeAt, pathFrom } from './earlyInteractionDom.js';

/** Set on an island while it holds a click for replay (announced as busy, styled as waiting). */
export const ISLAND_BUSY_ATTRIBUTE = 'aria-busy';

export interface EarlyInteractionCapture {
  /**
   * Stops holding clicks; after the hydration the island's mount started has had its frames to
   * commit (`HYDRATION_FRAMES`, then an idle moment), gives reset fields the reader's value back,
   * then replays the held clicks in order. Fields reset later, within the watch time, get it back
   * too; after it, at the reader's next key in them. Idempotent.
   */
  release(): Promise<void>;
}

/** Frames a mount's hydration gets to commit (React hydrates after the mount call returns). */
export const HYDRATION_FRAMES = 2;
/**
 * After those frames, the replay also waits for the browser to be idle (a framework still
 * hydrating keeps it busy), at most this long (ms).
 */
export const HYDRATION_IDLE_TIMEOUT_MS = 1000;
/**
 * How long after the replay a field the component reset (with no edit of the reader) gets the
 * reader's value back; a key or pointer press of the reader on the island ends it sooner.
 */
export const EDIT_WATCH_MS = 1500;

/** Resolves when the browser is idle, at most after `timeoutMs` (soon where it cannot tell). */
function idle(view: Window | null, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (view && typeof view.requestIdleCallback === 'function') view.requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });
}

/** How often one field gets the reader's value back. */
const MAX_RESTORES = 2;

/** Resolves at the next animation frame (or after 16 ms where there are none). */
function nextFrame(view: Window | null): Promise<void> {
  return new Promise((resolve) => {
    if (view && typeof view.requestAnimationFrame === 'function') view.requestAnimationFrame(() => resolve());
    else setTimeout(resolve, 16);
  });
}

/** True while a held click is being replayed (other islands' captures let it through too). */
let replaying = false;

/** A click or an Enter press held for replay, by the path of its target below the island. */
interface HeldAction {
  kind: 'click' | 'enter';
  path: number[];
}

/** The reader's latest value of one field, and how often it was given back already. */
interface RecordedEdit {
  path: number[];
  value: string;
  restored: number;
}

/** What an island's capture has kept of the reader, and how to stop keeping it. */
interface HeldInteractions {
  /** Held clicks and Enter presses, in the reader's order. */
  actions: HeldAction[];
  /** The reader's edits, by the field's path joined with `/`. */
  edits: Map<string, RecordedEdit>;
  /** Stops holding clicks and Enter (edits are still recorded) and clears the busy mark it set. */
  stopHolding(): void;
  /**
   * Stops recording edits and forgets them (idempotent); done by itself at the reader's first key
   * or pointer press on the island after `stopHolding`.
   */
  stopRecording(): void;
}

/**
 * Listens on `island` in the capture phase: holds clicks and Enter in a one-line field (marking the
 * island busy), records field edits, gives a reset field the reader's text back before the
 * reader's next key in it, and calls `onFirstInteraction` at the first click, Enter or edit.
 */
function holdInteractions(island: HTMLElement, onFirstInteraction: () => void): HeldInteractions {
  const actions: HeldAction[] = [];
  const edits = new Map<string, RecordedEdit>();
  let released = false;
  let interacted = false;
  let busy = false;
  const first = () => {
    if (interacted) return;
    interacted = true;
    onFirstInteraction();
  };
  const hold = (event: Event, kind: HeldAction['kind'], path: number[]) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    actions.push({ kind, path });
    if (!island.hasAttribute(ISLAND_BUSY_ATTRIBUTE)) {
      busy = true;
      island.setAttribute(ISLAND_BUSY_ATTRIBUTE, 'true');
    }
    first();
  };
  const holdClick = (event: MouseEvent) => {
    // Our own replay (a synchronous `click()`) passes through; so does everything after release.
    if (replaying || released || !event.target) return;
    const path = pathFrom(island, event.target as Node);
    if (path) hold(event, 'click', path);
  };
  // Enter in a one-line field submits its form (or means something to the component): held too,
  // so it acts on the reader's text, not on the value the hydration rendered over it.
  const holdEnter = (event: KeyboardEvent) => {
    if (replaying || released || event.key !== 'Enter' || event.isComposing) return;
    const field = editableField(event.target);
    const path = field && field.tagName === 'INPUT' ? pathFrom(island, field) : null;
    if (path) hold(event, 'enter', path);
  };
  const recordEdit = (event: Event) => {
    const field = editableField(event.target);
    const path = field && pathFrom(island, field);
    if (!field || !path) return;
    const key = path.join('/');
    edits.set(key, { path, value: field.value, restored: edits.get(key)?.restored ?? 0 });
    if (!released) first();
  };
  // Registered before `holdEnter`: a held Enter, too, finds the reader's text in the field.
  const restoreBeforeKey = (event: KeyboardEvent) => {
    restoreField(island, edits, event.target);
    if (released) stopRecording();
  };
  const readerPointed = () => {
    if (released) stopRecording();
  };
  const stopRecording = () => {
    island.removeEventListener('keydown', restoreBeforeKey, true);
    island.removeEventListener('pointerdown', readerPointed, true);
    island.removeEventListener('input', recordEdit, true);
    island.removeEventListener('change', recordEdit, true);
    edits.clear();
  };
  island.addEventListener('keydown', restoreBeforeKey, true);
  island.addEventListener('pointerdown', readerPointed, true);
  island.addEventListener('click', holdClick, true);
  island.addEventListener('keydown', holdEnter, true);
  island.addEventListener('input', recordEdit, true);
  island.addEventListener('change', recordEdit, true);
  return {
    actions,
    edits,
    stopHolding() {
      released = true;
      island.removeEventListener('click', holdClick, true);
      island.removeEventListener('keydown', holdEnter, true);
      if (busy) island.removeAttribute(ISLAND_BUSY_ATTRIBUTE);
    },
    stopRecording,
  };
}

/** Gives `field` the reader's value back if it lost it; true if it did. */
function giveBack(field: EditableField | null, edit: RecordedEdit): boolean {
  // Twice at most: a component that rewrites the value on purpose (trims it) keeps its own.
  if (!field?.isConnected || field.value === edit.value || edit.restored >= MAX_RESTORES) return false;
  edit.restored += 1;
  applyReaderValue(field, edit.value);
  return true;
}

/** Gives fields the island reset the reader's value back; returns how many. */
function restoreEdits(island: HTMLElement, edits: Map<string, RecordedEdit>): number {
  let count = 0;
  for (const edit of edits.values()) if (giveBack(editableField(nodeAt(island, edit.path)), edit)) count += 1;
  return count;
}

/** Gives `target`, a field the island reset, the reader's value back (before the reader's key lands in it). */
function restoreField(island: HTMLElement, edits: Map<string, RecordedEdit>, target: EventTarget | null): void {
  const field = editableField(target);
  const path = field && pathFrom(island, field);
  const edit = path && edits.get(path.join('/'));
  if (edit) giveBack(field, edit);
}

/** Resolves once a mount's hydration has had its frames to commit and the browser is idle. */
async function hydrationSettled(view: Window | null): Promise<void> {
  for (let frame = 0; frame < HYDRATION_FRAMES; frame += 1) await nextFrame(view);
  await idle(view, HYDRATION_IDLE_TIMEOUT_MS);
}

/** Replays held clicks and Enter presses in order, on the node now at each one's path. */
function replayActions(island: HTMLElement, actions: readonly HeldAction[]): void {
  for (const action of actions) {
    replaying = true;
    try {
      if (action.kind === 'click') clickableElement(nodeAt(island, action.path))?.click();
      else pressEnter(editableField(nodeAt(island, action.path)));
    } finally {
      replaying = false;
    }
  }
}

/**
 * A slower hydration may reset a field later: for `watchMs`, each frame gives the reader's latest
 * value (edits keep being recorded meanwhile) back over a reset nobody typed, until the reader
 * presses a key or pointer on the island (which ends the recording): from then on the hydrated
 * component owns the value (its Escape may clear the field on purpose).
 */
async function restoreLateResets(island: HTMLElement, held: HeldInteractions, view: Window | null, watchMs: number): Promise<void> {
  const until = Date.now() + watchMs;
  // The reader's key or press ends the recording, which empties `edits`: the loop ends with it.
  while (held.edits.size > 0 && Date.now() < until) {
    await nextFrame(view);
    restoreEdits(island, held.edits);
  }
}

/** The release of a capture: edits back, then the held actions, then a watch for late resets. */
async function replayAfterHydration(island: HTMLElement, held: HeldInteractions, editWatchMs: number): Promise<void> {
  if (held.edits.size === 0 && held.actions.length === 0) {
    held.stopHolding();
    return held.stopRecording();
  }
  const view = island.ownerDocument.defaultView;
  // At once (the mount settled after its commit), and again once the component had time to
  // re-render (its first effects may render its own value over the field again). Until then
  // clicks and Enter are still held: they must not act on that value.
  restoreEdits(island, held.edits);
  await hydrationSettled(view);
  // Edits first, committed by the component before a held action runs: a submit then sends what
  // the reader typed.
  if (restoreEdits(island, held.edits) > 0) await nextFrame(view);
  held.stopHolding();
  replayActions(island, held.actions.splice(0));
  await restoreLateResets(island, held, view, editWatchMs);
  // A reset after the watch still meets the reader's next key (which ends the recording);
  // with nothing typed early there is nothing to give back.
  if (held.edits.size === 0) held.stopRecording();
}

/**
 * Starts capturing the reader's clicks and field edits inside `island` (capture phase, before any
 * handler of the page) and calls `onFirstInteraction` at the first one, so a waiting island can
 * start loading then.
 * @param onFirstInteraction Default: nothing.
 * @param editWatchMs How long after the replay late resets are undone. Default `EDIT_WATCH_MS`.
 */
export function captureEarlyInteractions(
  island: HTMLElement,
  onFirstInteraction: () => void = () => {},
  editWatchMs: number = EDIT_WATCH_MS,
): EarlyInteractionCapture {
  const held = holdInteractions(island, onFirstInteraction);
  let releasing: Promise<void> | undefined;
  return {
    release() {
      releasing ??= replayAfterHydration(island, held, editWatchMs);
      return releasing;
    },
  };
}
