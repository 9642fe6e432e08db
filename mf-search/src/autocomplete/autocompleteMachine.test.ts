import { describe, expect, it, vi } from 'vitest';
import { AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS, AUTOCOMPLETE_STALL_THRESHOLD_MS, SEARCH_DEBOUNCE_MS, SEARCH_INPUT_MAX_LENGTH } from 'contracts';
import { createAutocompleteMachine, nextActiveIndex, type AutocompleteClock } from './autocompleteMachine.js';
import type { SuggestionAnswer } from './suggestions.js';

/** A clock whose time moves only when the test says so. */
function manualClock(): AutocompleteClock & { advance(ms: number): void; pending(): number } {
  let time = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    setTimeout(run, ms) {
      const id = next++;
      timers.set(id, { at: time + ms, run });
      return id;
    },
    clearTimeout: (timer) => void timers.delete(timer as number),
    now: () => time,
    advance(ms) {
      const until = time + ms;
      for (;;) {
        const due = [...timers].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        time = due[1].at;
        due[1].run();
      }
      time = until;
    },
    pending: () => timers.size,
  };
}

const TITLES = ['Leading remote teams', 'Self-leadership basics', 'Feedback for leaders'];
const answer = (): SuggestionAnswer => ({ suggestions: TITLES.map((title, i) => ({ objectID: `a${i}`, title })), tags: ['Leadership'] });

/** A source whose answers the test releases. */
function heldSource() {
  const calls: { query: string; resolve: (answer: SuggestionAnswer) => void; reject: (error: unknown) => void }[] = [];
  const source = (query: string) => new Promise<SuggestionAnswer>((resolve, reject) => calls.push({ query, resolve, reject }));
  return { source, calls };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function setup(initial: { initialQuery?: string; initialTags?: string[] } = {}) {
  const clock = manualClock();
  const { source, calls } = heldSource();
  const onQuery = vi.fn();
  const onSelect = vi.fn();
  const onItemsViewed = vi.fn();
  const machine = createAutocompleteMachine({ source, onQuery, onSelect, onItemsViewed }, initial, clock);
  return { machine, clock, calls, onQuery, onSelect, onItemsViewed };
}

describe('the autocomplete machine', () => {
  it('fires a typed query once, SEARCH_DEBOUNCE_MS after the last key', () => {
    const { machine, clock, calls, onQuery } = setup();
    machine.type('lea');
    clock.advance(SEARCH_DEBOUNCE_MS - 1);
    machine.type('lead');
    clock.advance(SEARCH_DEBOUNCE_MS - 1);
    expect(onQuery).not.toHaveBeenCalled();
    expect(machine.getState().inputValue).toBe('lead');
    clock.advance(1);
    expect(onQuery.mock.calls).toEqual([['lead']]);
    expect(calls.map((call) => call.query)).toEqual(['lead']);
    expect(machine.getState().status).toBe('loading');
  });

  it('counts the debounce from the keystroke time it is given', () => {
    const { machine, clock, onQuery } = setup();
    clock.advance(1000);
    machine.type('lead', 1000 - (SEARCH_DEBOUNCE_MS - 100));
    clock.advance(99);
    expect(onQuery).not.toHaveBeenCalled();
    clock.advance(1);
    expect(onQuery).toHaveBeenCalledWith('lead');
  });

  it('goes stalled after the threshold, then open with the answer, and reports the view once it stayed', async () => {
    const { machine, clock, calls, onItemsViewed } = setup();
    machine.setQueryNow('lead');
    clock.advance(AUTOCOMPLETE_STALL_THRESHOLD_MS);
    expect(machine.getState().status).toBe('stalled');
    calls[0]!.resolve(answer());
    await settle();
    expect(machine.getState().status).toBe('open');
    expect(machine.getState().suggestions.map((s) => s.title)).toEqual(['Leading remote teams', 'Self-leadership basics', 'Feedback for leaders']);
    clock.advance(AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS - 1);
    expect(onItemsViewed).not.toHaveBeenCalled();
    clock.advance(1);
    expect(onItemsViewed).toHaveBeenCalledTimes(1);
  });

  it('takes only the newest answer', async () => {
    const { machine, calls } = setup();
    machine.setQueryNow('lead');
    machine.setQueryNow('feedback');
    calls[1]!.resolve({ suggestions: [{ objectID: 'a2', title: 'Feedback for leaders' }], tags: [] });
    calls[0]!.resolve(answer());
    await settle();
    expect(machine.getState().suggestions.map((s) => s.title)).toEqual(['Feedback for leaders']);
  });

  it('stays closed when the visitor closed the panel while the answer was on its way', async () => {
    const { machine, calls, clock, onItemsViewed } = setup();
    machine.setQueryNow('lead');
    machine.close();
    calls[0]!.resolve(answer());
    await settle();
    expect(machine.getState().status).toBe('closed');
    clock.advance(AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS);
    expect(onItemsViewed).not.toHaveBeenCalled();
  });

  it('closes on a failed request, logging it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { machine, calls } = setup();
    machine.setQueryNow('lead');
    calls[0]!.reject(new Error('down'));
    await settle();
    expect(machine.getState()).toMatchObject({ status: 'closed', suggestions: [] });
    expect(errors).toHaveBeenCalledTimes(1);
    errors.mockRestore();
  });

  it('walks the suggestions with the arrow keys and selects the active one with Enter', async () => {
    const { machine, calls, onSelect } = setup();
    machine.setQueryNow('lead');
    calls[0]!.resolve(answer());
    await settle();
    expect(machine.keyDown('ArrowUp')).toBe(true);
    expect(machine.getState().activeIndex).toBe(2);
    machine.keyDown('ArrowDown');
    expect(machine.getState().activeIndex).toBe(0);
    expect(machine.keyDown('Enter')).toBe(true);
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ title: 'Leading remote teams' }), 1);
    expect(machine.getState()).toMatchObject({ inputValue: 'Leading remote teams', status: 'closed', activeIndex: -1 });
  });

  it('Escape closes an open panel, and clears the box when nothing is open; Enter without an active one passes', async () => {
    const { machine, calls, onQuery } = setup({ initialQuery: 'lead' });
    machine.setQueryNow('lead');
    calls[0]!.resolve(answer());
    await settle();
    expect(machine.keyDown('Enter')).toBe(false);
    expect(machine.keyDown('Escape')).toBe(true);
    expect(machine.getState().status).toBe('closed');
    machine.keyDown('Escape');
    expect(machine.getState()).toMatchObject({ inputValue: '', status: 'idle' });
    expect(onQuery).toHaveBeenLastCalledWith('');
  });

  it('replaceInputValue sets the text without firing it, and drops a pending one', () => {
    const { machine, clock, onQuery } = setup();
    machine.type('lea');
    machine.replaceInputValue('team');
    clock.advance(SEARCH_DEBOUNCE_MS * 2);
    expect(onQuery).not.toHaveBeenCalled();
    expect(machine.getState()).toMatchObject({ inputValue: 'team', status: 'idle' });
  });

  it('flush fires the pending query at once; stop drops every pending delay', () => {
    const { machine, clock, onQuery } = setup();
    machine.type('lead');
    machine.flush();
    expect(onQuery).toHaveBeenCalledWith('lead');
    machine.type('leader');
    machine.stop();
    clock.advance(SEARCH_DEBOUNCE_MS + AUTOCOMPLETE_STALL_THRESHOLD_MS);
    expect(onQuery).toHaveBeenCalledTimes(1);
    expect(clock.pending()).toBe(0);
  });

  it('cuts the text to SEARCH_INPUT_MAX_LENGTH', () => {
    const { machine } = setup({ initialQuery: 'x'.repeat(SEARCH_INPUT_MAX_LENGTH + 5) });
    expect(machine.getState().inputValue).toHaveLength(SEARCH_INPUT_MAX_LENGTH);
  });

  it('fetches the tags once unless they were given, and drops an answer after its cancel', async () => {
    const fetched = setup();
    fetched.machine.loadTags();
    fetched.calls[0]!.resolve(answer());
    await settle();
    expect(fetched.machine.getState().tags).toEqual(['Leadership']);

    const cancelled = setup();
    cancelled.machine.loadTags()();
    cancelled.calls[0]!.resolve(answer());
    await settle();
    expect(cancelled.machine.getState().tags).toEqual([]);

    const given = setup({ initialTags: ['Given'] });
    given.machine.loadTags();
    expect(given.calls).toEqual([]);
    expect(given.machine.getState().tags).toEqual(['Given']);
  });

  it('tells its subscribers of every change', () => {
    const { machine } = setup();
    const listener = vi.fn();
    const unsubscribe = machine.subscribe(listener);
    machine.setActiveIndex(1);
    unsubscribe();
    machine.setActiveIndex(2);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('nextActiveIndex', () => {
  it('wraps down from the last to the first, and up from none or the first to the last', () => {
    expect(nextActiveIndex(2, 3, true)).toBe(0);
    expect(nextActiveIndex(-1, 3, true)).toBe(0);
    expect(nextActiveIndex(0, 3, false)).toBe(2);
    expect(nextActiveIndex(-1, 3, false)).toBe(2);
    expect(nextActiveIndex(1, 3, false)).toBe(0);
  });
});
