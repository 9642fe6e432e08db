// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPageBus } from 'contracts';
import { CONSENT_STORAGE_KEY, readConsent, startConsentPanel } from './consent.js';
import { startSiteSearchTracking } from './siteSearchTracking.js';

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = `
    <dialog id="cookie-banner"><form method="dialog">
      <input type="checkbox" name="insights"><input type="checkbox" name="tracking">
      <button type="submit">Save</button>
    </form></dialog>`;
  // jsdom has no modal dialogs; the attribute is what the panel's code relies on.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

describe('consent panel', () => {
  it('allows nothing until the visitor decides, and survives garbage', () => {
    expect(readConsent()).toEqual({ insights: false, tracking: false });
    localStorage.setItem(CONSENT_STORAGE_KEY, '{broken');
    expect(readConsent()).toEqual({ insights: false, tracking: false });
  });

  it('opens on request, saves the choice and announces it on the bus', () => {
    const bus = createPageBus();
    const changed = vi.fn();
    bus.on('consent-changed', changed);
    startConsentPanel(document, bus);
    bus.emit('consent-panel-requested', { source: 'footer link' });
    const dialog = document.querySelector('dialog')!;
    expect(dialog.open).toBe(true);
    (dialog.querySelector('input[name="insights"]') as HTMLInputElement).checked = true;
    dialog.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    expect(changed).toHaveBeenCalledWith({ insights: true, tracking: false });
    expect(readConsent()).toEqual({ insights: true, tracking: false });
    expect(dialog.open).toBe(false);
  });
});

describe('site-search tracking', () => {
  it('sends trackSiteSearch to the tracker only with consent', () => {
    const bus = createPageBus();
    const tracker = { push: vi.fn() };
    let consent = { insights: false, tracking: false };
    startSiteSearchTracking(bus, () => consent, () => tracker);
    bus.emit('search-submitted', { query: 'feedback', hitCount: 7 });
    expect(tracker.push).not.toHaveBeenCalled();
    consent = { insights: false, tracking: true };
    bus.emit('search-submitted', { query: 'feedback', hitCount: 7 });
    expect(tracker.push).toHaveBeenCalledWith(['trackSiteSearch', 'feedback', false, 7]);
  });

  it('does nothing when no tracker is on the page', () => {
    const bus = createPageBus();
    startSiteSearchTracking(bus, () => ({ insights: true, tracking: true }), () => undefined);
    expect(() => bus.emit('search-submitted', { query: 'x', hitCount: 0 })).not.toThrow();
  });
});
