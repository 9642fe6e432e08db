// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { createPageBus, examplePageConfig, type IslandContext } from 'contracts';
import mount from './PageWidgets.js';

describe('PageWidgets island', () => {
  it('enhances the whole document from an empty island, and unmount puts the server markup back', async () => {
    document.body.innerHTML = `
      <a href="#cookie-banner" id="cookie">Cookie settings</a>
      <div data-widget="password-toggle"><input type="password"><button type="button" data-password-toggle hidden>Show password</button></div>
      <div id="island"></div>`;
    const before = document.body.innerHTML;
    const bus = createPageBus();
    const requested = vi.fn();
    bus.on('consent-panel-requested', requested);
    const context: IslandContext = { bus, config: examplePageConfig(), getConsent: () => ({ insights: false, tracking: false }) };
    const unmount = await mount(document.getElementById('island')!, {}, context);
    document.getElementById('cookie')!.click();
    expect(requested).toHaveBeenCalledTimes(1);
    expect(document.querySelector<HTMLButtonElement>('[data-password-toggle]')!.hidden).toBe(false);
    unmount();
    expect(document.body.innerHTML).toBe(before);
    document.getElementById('cookie')!.click();
    expect(requested).toHaveBeenCalledTimes(1);
  });

  it('a second PageWidgets island shares the first one\'s engine: nothing is enhanced twice', async () => {
    document.body.innerHTML = `
      <div data-widget="password-toggle"><input type="password" id="pw"><button type="button" data-password-toggle hidden>Show password</button></div>
      <div id="one"></div><div id="two"></div>`;
    const context: IslandContext = { bus: createPageBus(), config: examplePageConfig(), getConsent: () => ({ insights: false, tracking: false }) };
    const unmountOne = await mount(document.getElementById('one')!, {}, context);
    const unmountTwo = await mount(document.getElementById('two')!, {}, context);
    const toggle = document.querySelector<HTMLButtonElement>('[data-password-toggle]')!;
    toggle.click();
    // One listener: one click shows the password (two listeners would show and hide it again).
    expect(document.querySelector<HTMLInputElement>('#pw')!.type).toBe('text');
    unmountOne();
    toggle.click();
    expect(document.querySelector<HTMLInputElement>('#pw')!.type).toBe('password');
    unmountTwo();
    expect(toggle.hidden).toBe(true);
  });
});
