// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MarkupError } from '../../enhance/markup.js';
import { press, render, testEnv } from '../../testing/testEnv.js';
import { enhanceTabs } from './enhanceTabs.js';

const markup = `<div data-widget="tabs" data-tabs-name="Key takeaways">
  <section id="p1" data-tabs-panel><h3 data-tabs-label>Summary</h3><p>one</p></section>
  <section id="p2" data-tabs-panel><h3 data-tabs-label>Key points</h3><p>two</p></section>
  <section id="p3" data-tabs-panel><h3 data-tabs-label>Next steps</h3><p>three</p></section>
</div>`;

const selectedLabel = (root: Element) => root.querySelector('[role="tab"][aria-selected="true"]')?.textContent;
const visiblePanels = (root: Element) => [...root.querySelectorAll<HTMLElement>('[role="tabpanel"]')].filter((p) => !p.hidden).map((p) => p.id);

describe('tabs', () => {
  it('builds a WAI-ARIA tab list from the panel headings', () => {
    const root = render(markup);
    enhanceTabs(root, testEnv());
    const tablist = root.querySelector('[role="tablist"]')!;
    expect(tablist.getAttribute('aria-label')).toBe('Key takeaways');
    const tabs = [...tablist.querySelectorAll('[role="tab"]')];
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Summary', 'Key points', 'Next steps']);
    expect(tabs.map((tab) => tab.getAttribute('aria-controls'))).toEqual(['p1', 'p2', 'p3']);
    expect(root.querySelector('#p2')!.getAttribute('aria-labelledby')).toBe(tabs[1]!.id);
    expect(tabs.map((tab) => (tab as HTMLElement).tabIndex)).toEqual([0, -1, -1]);
    expect(visiblePanels(root)).toEqual(['p1']);
    expect(root.querySelector<HTMLElement>('#p1 h3')!.hidden).toBe(true);
  });

  it('moves with arrows (wrapping), Home and End, selecting and focusing the tab', () => {
    const root = render(markup);
    enhanceTabs(root, testEnv());
    const tabs = [...root.querySelectorAll<HTMLElement>('[role="tab"]')];
    tabs[0]!.focus();
    press(tabs[0]!, 'ArrowLeft');
    expect(selectedLabel(root)).toBe('Next steps');
    expect(document.activeElement).toBe(tabs[2]);
    expect(visiblePanels(root)).toEqual(['p3']);
    press(tabs[2]!, 'ArrowRight');
    expect(selectedLabel(root)).toBe('Summary');
    press(tabs[0]!, 'End');
    expect(selectedLabel(root)).toBe('Next steps');
    press(tabs[2]!, 'Home');
    expect(selectedLabel(root)).toBe('Summary');
    expect(document.activeElement).toBe(tabs[0]);
    press(tabs[0]!, 'ArrowRight');
    expect(selectedLabel(root)).toBe('Key points');
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([-1, 0, -1]);
  });

  it('selects a tab on click', () => {
    const root = render(markup);
    enhanceTabs(root, testEnv());
    root.querySelectorAll<HTMLElement>('[role="tab"]')[2]!.click();
    expect(visiblePanels(root)).toEqual(['p3']);
  });

  it('cleanup restores all panels with their headings', () => {
    const root = render(markup);
    const before = root.outerHTML;
    enhanceTabs(root, testEnv())();
    expect(root.outerHTML).toBe(before);
  });

  it('rejects a panel without a label', () => {
    const root = render('<div data-widget="tabs"><section data-tabs-panel></section><section data-tabs-panel><h3 data-tabs-label>x</h3></section></div>');
    expect(() => enhanceTabs(root, testEnv())).toThrow(MarkupError);
    expect(root.querySelector('[role="tablist"]')).toBeNull();
  });
});
