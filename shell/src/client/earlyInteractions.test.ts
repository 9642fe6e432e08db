// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureEarlyInteractions, nodeAt, pathFrom } from './earlyInteractions.js';

/** A click as the reader makes it (cancelable, bubbling). */
function readerClick(target: Element): MouseEvent {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

function island(html: string): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  document.body.append(element);
  return element;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('paths inside an island', () => {
  it('finds the same place again, and nothing outside the island', async () => {
    const root = island('<p>text</p><form><label>A <input type="radio" name="a"></label><button>Go</button></form>');
    const button = root.querySelector('button')!;
    const path = pathFrom(root, button)!;
    expect(path).toEqual([1, 1]);
    expect(nodeAt(root, path)).toBe(button);
    expect(pathFrom(root, document.body)).toBeNull();
    expect(nodeAt(root, [5, 0])).toBeNull();
  });
});

describe('early clicks', () => {
  it('holds a reader\'s click before hydration (no default, no page handler) and replays it on the hydrated node', async () => {
    const root = island('<button type="button">Add</button>');
    const button = root.querySelector('button')!;
    const pageHandler = vi.fn();
    root.addEventListener('click', pageHandler);
    const first = vi.fn();
    const capture = captureEarlyInteractions(root, first, 0);

    const event = readerClick(button);
    expect(event.defaultPrevented).toBe(true);
    expect(pageHandler).not.toHaveBeenCalled();
    expect(first).toHaveBeenCalledTimes(1);
    expect(root.getAttribute('aria-busy')).toBe('true');

    // Hydration attaches its handler to the same node.
    const hydratedHandler = vi.fn();
    button.addEventListener('click', hydratedHandler);
    await capture.release();
    expect(hydratedHandler).toHaveBeenCalledTimes(1);
    expect(root.hasAttribute('aria-busy')).toBe(false);

    // After release, clicks go straight through, and a second release replays nothing.
    readerClick(button);
    expect(hydratedHandler).toHaveBeenCalledTimes(2);
    await capture.release();
    expect(hydratedHandler).toHaveBeenCalledTimes(2);
  });

  it('replays several clicks in order, and calls onFirstClick once', async () => {
    const root = island('<button id="a">A</button><button id="b">B</button>');
    const order: string[] = [];
    const first = vi.fn();
    const capture = captureEarlyInteractions(root, first, 0);
    readerClick(root.querySelector('#b')!);
    readerClick(root.querySelector('#a')!);
    expect(first).toHaveBeenCalledTimes(1);
    for (const button of root.querySelectorAll('button')) button.addEventListener('click', () => order.push(button.id));
    await capture.release();
    expect(order).toEqual(['b', 'a']);
  });

  it('a held radio is checked only by the replay', async () => {
    const root = island('<label><input type="radio" name="answer" value="1"> Yes</label>');
    const radio = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 0);
    readerClick(radio);
    expect(radio.checked).toBe(false);
    await capture.release();
    expect(radio.checked).toBe(true);
  });

  it('after a failure the click lands on the same place in the fallback markup', async () => {
    const root = island('<form><button type="submit">Vote</button></form>');
    const capture = captureEarlyInteractions(root, undefined, 0);
    readerClick(root.querySelector('button')!);
    // The runtime puts the fallback back: new nodes, same shape.
    root.innerHTML = '<form><button type="button">Vote</button></form>';
    const fallbackButton = root.querySelector('button')!;
    const clicked = vi.fn();
    fallbackButton.addEventListener('click', clicked);
    await capture.release();
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('lets its own replay through an island that still holds clicks', async () => {
    const outer = island('<div id="inner"><button>Go</button></div>');
    const inner = outer.querySelector<HTMLElement>('#inner')!;
    const outerCapture = captureEarlyInteractions(outer, undefined, 0);
    const innerCapture = captureEarlyInteractions(inner, undefined, 0);
    const handler = vi.fn();
    outer.addEventListener('click', handler);
    readerClick(inner.querySelector('button')!);
    expect(handler).not.toHaveBeenCalled();
    // The outer island held it (capture runs outside in); its replay passes the inner one.
    await outerCapture.release();
    expect(handler).toHaveBeenCalledTimes(1);
    await innerCapture.release();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('gives a field the reader\'s text back when hydration reset it, with an input event, before replaying a submit', async () => {
    const root = island('<form><input name="q" value=""><button type="submit">Search</button></form>');
    const input = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 0);
    input.value = 'leader';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    readerClick(root.querySelector('button')!);
    // Hydration renders the component's own state: the empty value.
    input.value = '';
    const seen: string[] = [];
    input.addEventListener('input', () => seen.push(`input:${input.value}`));
    root.querySelector('form')!.addEventListener('submit', (event) => {
      event.preventDefault();
      seen.push(`submit:${input.value}`);
    });
    await capture.release();
    expect(input.value).toBe('leader');
    expect(seen).toEqual(['input:leader', 'submit:leader']);
  });

  it('leaves a field alone when it still holds the reader\'s text, and calls onFirstInteraction on an edit', async () => {
    const root = island('<textarea></textarea>');
    const textarea = root.querySelector('textarea')!;
    const first = vi.fn();
    const capture = captureEarlyInteractions(root, first, 0);
    textarea.value = 'kept';
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
    expect(first).toHaveBeenCalledTimes(1);
    const events = vi.fn();
    textarea.addEventListener('input', events);
    await capture.release();
    expect(textarea.value).toBe('kept');
    expect(events).not.toHaveBeenCalled();
  });

  it('gives the reader\'s text back when the component resets the field after the replay (a slower hydration)', async () => {
    const root = island('<input value="">');
    const input = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 300);
    input.value = 'typed early';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const releasing = capture.release();
    setTimeout(() => (input.value = ''), 80);
    await releasing;
    expect(input.value).toBe('typed early');
  });

  it('lets the reader\'s later typing win, and gives up on a component that keeps rewriting the value', async () => {
    const root = island('<input value="">');
    const input = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 300);
    input.value = 'abc';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const releasing = capture.release();
    setTimeout(() => {
      input.value = 'abcd';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, 50);
    await releasing;
    expect(input.value).toBe('abcd');

    const trimming = island('<input value="">');
    const field = trimming.querySelector('input')!;
    const second = captureEarlyInteractions(trimming, undefined, 300);
    field.value = ' padded ';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    const restores: string[] = [];
    field.addEventListener('input', () => {
      restores.push(field.value);
      queueMicrotask(() => (field.value = field.value.trim()));
    });
    field.value = '';
    await second.release();
    expect(restores).toEqual([' padded ', ' padded ']);
    expect(field.value).toBe('padded');
  });

  it('stops restoring once the reader presses a key in the hydrated island (its Escape may clear the field)', async () => {
    const root = island('<input value="">');
    const input = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 300);
    input.value = 'lead';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const releasing = capture.release();
    setTimeout(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      input.value = '';
    }, 60);
    await releasing;
    expect(input.value).toBe('');
  });

  it('a key the reader presses into a field the hydration reset meanwhile lands on the reader\'s text (lea, reset, d: lead), before the release too', async () => {
    const root = island('<input value="">');
    const input = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 0);
    const type = (key: string) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      input.dispatchEvent(event);
      // What the browser then does with a printable key: it goes into the field at the caret.
      if (!event.defaultPrevented) {
        input.value += key;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    };
    type('l');
    type('e');
    type('a');
    // The component hydrates with its own empty value, between two of the reader's keys.
    input.value = '';
    type('d');
    expect(input.value).toBe('lead');
    await capture.release();
    expect(input.value).toBe('lead');
  });

  it('after the watch, a reset field gets the reader\'s text back at the reader\'s next key in it, once; a value the component sets after that key stays', async () => {
    const root = island('<input value="">');
    const input = root.querySelector('input')!;
    const capture = captureEarlyInteractions(root, undefined, 0);
    input.value = 'lea';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await capture.release();
    // A hydration slower than the watch: its reset comes after the release.
    input.value = '';
    const seenByTheKey: string[] = [];
    input.addEventListener('keydown', () => seenByTheKey.push(input.value));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'd', bubbles: true }));
    expect(seenByTheKey).toEqual(['lea']);
    // From that key on the hydrated component owns the value: it may set one (a picked suggestion).
    input.value = 'Leadership';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(seenByTheKey).toEqual(['lea', 'Leadership']);
  });

  it('holds Enter in a field and replays it after the reader\'s text is back: the form submits what was typed', async () => {
    const root = island('<form><input name="q" value=""></form>');
    const input = root.querySelector('input')!;
    const form = root.querySelector('form')!;
    const submitted: string[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submitted.push(input.value);
    });
    const capture = captureEarlyInteractions(root, undefined, 0);
    input.value = 'coaching';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    // Hydration renders its own empty value.
    input.value = '';
    await capture.release();
    expect(input.value).toBe('coaching');
    expect(submitted).toEqual(['coaching']);
  });

  it('a replayed Enter the hydrated component handles does not submit the form too', async () => {
    const root = island('<form><input name="q" value=""></form>');
    const input = root.querySelector('input')!;
    const submitted = vi.fn((event: Event) => event.preventDefault());
    root.querySelector('form')!.addEventListener('submit', submitted);
    const capture = captureEarlyInteractions(root, undefined, 0);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    // The component picks the active suggestion on Enter.
    const picked = vi.fn((event: KeyboardEvent) => event.preventDefault());
    input.addEventListener('keydown', picked);
    await capture.release();
    expect(picked).toHaveBeenCalledTimes(1);
    expect(submitted).not.toHaveBeenCalled();
  });
});
