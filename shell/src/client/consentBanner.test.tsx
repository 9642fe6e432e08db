// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createPageBus, type PageBus } from 'contracts';
import { ConsentBanner } from '../server/pages/ConsentBanner.js';
import { ConsentPanel } from '../server/pages/ConsentPanel.js';
import { CONSENT_STORAGE_KEY, readConsent, startConsentPanel, startCookieSettingsLinks } from './consent.js';
import { startConsentBanner } from './consentBanner.js';

// The markup the server renders: the footer's link, the panel, the banner (hidden).
const PAGE = `<main id="main" tabindex="-1"><p>Text</p></main>
  <footer><a href="#cookie-banner">Cookie settings</a></footer>
  ${renderToStaticMarkup(<ConsentPanel />)}
  ${renderToStaticMarkup(<ConsentBanner />)}`;

const banner = () => document.getElementById('consent-banner')!;
const question = () => banner().querySelector<HTMLElement>('[data-consent-question]')!;
const confirmation = () => banner().querySelector<HTMLElement>('[data-consent-confirmation]')!;
const button = (name: string) => [...banner().querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === name)!;

const stops: Array<() => void> = [];
function start(): { bus: PageBus; changed: ReturnType<typeof vi.fn> } {
  const bus = createPageBus();
  const changed = vi.fn();
  bus.on('consent-changed', changed);
  stops.push(startConsentBanner(document, bus), startConsentPanel(document, bus), startCookieSettingsLinks(document, bus));
  return { bus, changed };
}
afterEach(() => stops.splice(0).forEach((stop) => stop()));

beforeEach(() => {
  localStorage.clear();
  history.replaceState(null, '', '/');
  document.body.innerHTML = PAGE;
  // jsdom has no modal dialogs; the attribute is what the panel's code relies on.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

describe('the consent banner', () => {
  it('is hidden in the markup (no script, nothing asked) and nothing in it is ticked', () => {
    expect(banner().hidden).toBe(true);
    expect(confirmation().hidden).toBe(true);
    expect(document.querySelectorAll('input:checked')).toHaveLength(0);
    expect(banner().getAttribute('aria-labelledby')).toBe('consent-banner-title');
    expect(document.getElementById('consent-banner-title')?.textContent).toMatch(/measure/);
  });

  it('shows on a first visit; "Allow" saves and announces full consent, then confirms and takes the focus', () => {
    const { changed } = start();
    expect(banner().hidden).toBe(false);
    button('Allow').focus();
    button('Allow').click();
    expect(readConsent()).toEqual({ insights: true, tracking: true });
    expect(changed).toHaveBeenCalledWith({ insights: true, tracking: true });
    expect(question().hidden).toBe(true);
    expect(confirmation().hidden).toBe(false);
    expect(document.activeElement).toBe(confirmation());
    button('Hide this message').click();
    expect(banner().hidden).toBe(true);
    expect(document.activeElement).toBe(document.getElementById('main'));
  });

  it('"Refuse" saves and announces no consent; the next page shows no banner', () => {
    const { changed } = start();
    button('Refuse').click();
    expect(JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY)!)).toEqual({ insights: false, tracking: false });
    expect(changed).toHaveBeenCalledWith({ insights: false, tracking: false });
    expect(confirmation().hidden).toBe(false);
    document.body.innerHTML = PAGE;
    start();
    expect(banner().hidden).toBe(true);
  });

  it('"Choose" opens the panel unticked; saving it answers the banner too', () => {
    start();
    button('Choose').click();
    const dialog = document.querySelector('dialog')!;
    expect(dialog.open).toBe(true);
    expect([...dialog.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].map((box) => box.checked)).toEqual([false, false]);
    dialog.querySelector<HTMLInputElement>('input[name="insights"]')!.checked = true;
    dialog.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    expect(readConsent()).toEqual({ insights: true, tracking: false });
    expect(confirmation().hidden).toBe(false);
  });

  it('stays hidden after an answer of any kind, and shows again over garbage in the store', () => {
    localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ insights: false, tracking: false }));
    start();
    expect(banner().hidden).toBe(true);
    document.body.innerHTML = PAGE;
    localStorage.setItem(CONSENT_STORAGE_KEY, '{broken');
    start();
    expect(banner().hidden).toBe(false);
  });
});

describe('the "Cookie settings" link', () => {
  it('opens the panel as soon as the runtime runs (a plain click; one the widgets handled is left alone)', () => {
    const { bus } = start();
    const requested = vi.fn();
    bus.on('consent-panel-requested', requested);
    const link = document.querySelector<HTMLAnchorElement>('footer a')!;
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(document.querySelector('dialog')!.open).toBe(true);
    expect(requested).toHaveBeenCalledTimes(1);
    link.addEventListener('click', (event) => event.preventDefault());
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(requested).toHaveBeenCalledTimes(1);
  });

  it('a click before the runtime ran (the address ends in #cookie-banner) opens the panel at start', () => {
    history.replaceState(null, '', '/#cookie-banner');
    start();
    expect(document.querySelector('dialog')!.open).toBe(true);
  });
});
