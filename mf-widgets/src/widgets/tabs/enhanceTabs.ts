import type { WidgetEnv } from '../../enhance/env.js';
import { ensureId, MarkupError, requireChildren } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';

/**
 * Tabs (`[data-widget="tabs"]`) following the WAI-ARIA tabs pattern. The server renders every
 * panel (`[data-tabs-panel]`) with its heading (`[data-tabs-label]`), so the content reads in
 * order without script. Enhancement builds a tablist from the headings (which then hide, the tab
 * names the panel), shows one panel, and adds keyboard navigation: Left/Right arrows with
 * wraparound, Home, End; the arrows select the tab they move to (automatic activation).
 * The first panel with `data-tabs-selected` starts selected, else the first one.
 */
export function enhanceTabs(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const panels = requireChildren(element, ':scope > [data-tabs-panel]', 'panels', 2);
    const labels = panels.map((panel) => {
      const label = panel.querySelector<HTMLElement>('[data-tabs-label]');
      if (!label?.textContent?.trim()) throw new MarkupError('every panel needs a [data-tabs-label] heading with text');
      return label;
    });

    const doc = env.document;
    const tablist = doc.createElement('div');
    tablist.className = 'khs-widgets-tabs__list';
    tablist.setAttribute('role', 'tablist');
    const name = element.getAttribute('data-tabs-name') ?? element.getAttribute('aria-label');
    if (name) tablist.setAttribute('aria-label', name);

    const tabs = panels.map((panel, position) => {
      const panelId = ensureId(panel, 'tabs-panel', (el, attr, value) => undo.setAttribute(el, attr, value));
      const tab = doc.createElement('button');
      tab.type = 'button';
      tab.className = 'khs-widgets-tabs__tab';
      tab.id = `${panelId}-tab`;
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-controls', panelId);
      tab.textContent = labels[position]!.textContent!.trim();
      tablist.append(tab);
      undo.setAttribute(panel, 'role', 'tabpanel');
      undo.setAttribute(panel, 'aria-labelledby', tab.id);
      undo.setAttribute(panel, 'tabindex', '0');
      undo.setAttribute(labels[position]!, 'hidden', '');
      undo.defer(() => {
        panel.hidden = false;
      });
      return tab;
    });

    const select = (index: number, moveFocus: boolean) => {
      tabs.forEach((tab, position) => {
        const selected = position === index;
        tab.setAttribute('aria-selected', String(selected));
        tab.tabIndex = selected ? 0 : -1;
        panels[position]!.hidden = !selected;
      });
      if (moveFocus) tabs[index]!.focus();
    };

    const initial = Math.max(0, panels.findIndex((panel) => panel.hasAttribute('data-tabs-selected')));
    select(initial, false);
    undo.insert(tablist, element, element.firstChild);
    undo.addClass(element, 'is-enhanced');

    undo.listen(tablist, 'click', (event) => {
      const index = tabs.indexOf((event.target as Element).closest('[role="tab"]') as HTMLButtonElement);
      if (index >= 0) select(index, true);
    });
    undo.listen(tablist, 'keydown', (event) => {
      const current = tabs.indexOf(event.target as HTMLButtonElement);
      if (current < 0) return;
      const last = tabs.length - 1;
      const target =
        event.key === 'ArrowRight' ? (current === last ? 0 : current + 1)
        : event.key === 'ArrowLeft' ? (current === 0 ? last : current - 1)
        : event.key === 'Home' ? 0
        : event.key === 'End' ? last
        : -1;
      if (target < 0) return;
      event.preventDefault();
      select(target, true);
    });
  });
}
