// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testEnv } from '../testing/testEnv.js';
import { WIDGETS } from '../widgets/registry.js';
import { startEnhancer, type EnhancerEngine, type WidgetDefinition } from './engine.js';
import { MarkupError } from './markup.js';
import { withUndo } from './undo.js';

const flushMutations = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A widget that counts clicks on its element and marks itself enhanced. */
function clickCounter(counts: Map<Element, number>): WidgetDefinition {
  return {
    name: 'counter',
    selector: '[data-widget="counter"]',
    enhance: (element) =>
      withUndo((undo) => {
        if (element.hasAttribute('data-broken')) throw new MarkupError('counter markup is broken');
        undo.addClass(element, 'is-enhanced');
        undo.listen(element, 'click', () => counts.set(element, (counts.get(element) ?? 0) + 1));
      }),
  };
}

describe('enhancer engine', () => {
  let engine: EnhancerEngine | undefined;
  afterEach(() => {
    engine?.stop();
    engine = undefined;
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('enhances every matching element once, even when scanned again', () => {
    document.body.innerHTML = '<button data-widget="counter" id="a"></button><button data-widget="counter" id="b"></button>';
    const counts = new Map<Element, number>();
    engine = startEnhancer({ root: document, widgets: [clickCounter(counts)], env: testEnv() });
    engine.scan(document);
    engine.scan(document.body);
    const a = document.getElementById('a')!;
    a.click();
    expect(counts.get(a)).toBe(1);
    expect(engine.enhancedCount).toBe(2);
  });

  it('enhances widgets added later (e.g. inside search results) through the MutationObserver', async () => {
    const counts = new Map<Element, number>();
    engine = startEnhancer({ root: document, widgets: [clickCounter(counts)], env: testEnv() });
    const results = document.createElement('div');
    results.innerHTML = '<ul><li><button data-widget="counter"></button></li></ul>';
    document.body.append(results);
    await flushMutations();
    const late = results.querySelector('button')!;
    expect(late.classList.contains('is-enhanced')).toBe(true);
    late.click();
    expect(counts.get(late)).toBe(1);
  });

  it('skips a broken widget with one warning and still enhances the others', async () => {
    document.body.innerHTML = '<button data-widget="counter" data-broken id="bad"></button><button data-widget="counter" id="good"></button>';
    const logger = { warn: vi.fn() };
    engine = startEnhancer({ root: document, widgets: [clickCounter(new Map())], env: testEnv(), logger });
    engine.scan(document);
    document.body.append(document.createElement('p'));
    await flushMutations();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(String(logger.warn.mock.calls[0]![0])).toContain('counter skipped: counter markup is broken');
    expect(document.getElementById('good')!.classList.contains('is-enhanced')).toBe(true);
    expect(document.getElementById('bad')!.classList.contains('is-enhanced')).toBe(false);
  });

  it('isolates an enhancer that throws an unexpected error', () => {
    document.body.innerHTML = '<div data-widget="explodes"></div><button data-widget="counter" id="good"></button>';
    const logger = { warn: vi.fn() };
    const explodes: WidgetDefinition = {
      name: 'explodes',
      selector: '[data-widget="explodes"]',
      enhance: () => {
        throw new TypeError('boom');
      },
    };
    engine = startEnhancer({ root: document, widgets: [explodes, clickCounter(new Map())], env: testEnv(), logger });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(document.getElementById('good')!.classList.contains('is-enhanced')).toBe(true);
  });

  it('stop removes every listener and enhancement, and observes nothing more', async () => {
    document.body.innerHTML = '<button data-widget="counter" id="a"></button>';
    const counts = new Map<Element, number>();
    engine = startEnhancer({ root: document, widgets: [clickCounter(counts)], env: testEnv() });
    engine.stop();
    const a = document.getElementById('a')!;
    a.click();
    expect(counts.get(a)).toBeUndefined();
    expect(a.classList.contains('is-enhanced')).toBe(false);
    document.body.insertAdjacentHTML('beforeend', '<button data-widget="counter" id="late"></button>');
    await flushMutations();
    expect(document.getElementById('late')!.classList.contains('is-enhanced')).toBe(false);
    expect(engine.enhancedCount).toBe(0);
  });

  it('cleans up a widget that leaves the page, and enhances it afresh when it comes back', async () => {
    document.body.innerHTML = '<div id="host"><button data-widget="counter" id="a"></button></div>';
    const counts = new Map<Element, number>();
    engine = startEnhancer({ root: document, widgets: [clickCounter(counts)], env: testEnv() });
    const a = document.getElementById('a')!;
    a.remove();
    await flushMutations();
    expect(a.classList.contains('is-enhanced')).toBe(false);
    expect(engine.enhancedCount).toBe(0);
    document.getElementById('host')!.append(a);
    await flushMutations();
    a.click();
    expect(counts.get(a)).toBe(1);
  });

  it('with the real registry: a broken tabs block warns once while a password toggle still works', () => {
    document.body.innerHTML = `
      <div data-widget="tabs"><section data-tabs-panel><p>no heading</p></section><section data-tabs-panel><h3 data-tabs-label>B</h3></section></div>
      <div data-widget="password-toggle"><input type="password" id="pw"><button type="button" data-password-toggle hidden>Show password</button></div>`;
    const logger = { warn: vi.fn() };
    engine = startEnhancer({ root: document, widgets: WIDGETS, env: testEnv(), logger });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(String(logger.warn.mock.calls[0]![0])).toContain('tabs skipped');
    expect(document.querySelector('[role="tablist"]')).toBeNull();
    document.querySelector<HTMLButtonElement>('[data-password-toggle]')!.click();
    expect(document.querySelector<HTMLInputElement>('#pw')!.type).toBe('text');
  });
});
