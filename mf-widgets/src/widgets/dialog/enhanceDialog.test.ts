// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALOG_CLOSE_DELAY_MS } from 'contracts';
import { press, testEnv, type TestEnv } from '../../testing/testEnv.js';
import { isPageScrollLocked } from '../shared/scrollLock.js';
import { enhanceDialog } from './enhanceDialog.js';
import { enhanceDialogTrigger } from './enhanceDialogTrigger.js';

const markup = `
  <a href="#cite" id="trigger" data-dialog-open="cite">Cite</a>
  <section id="cite" data-widget="dialog" aria-labelledby="cite-title">
    <div class="khs-widgets-dialog__panel"><h2 id="cite-title">Cite</h2>
      <button type="button" data-dialog-close hidden>Close</button>
      <a href="/x" id="inner-link">Link</a>
    </div>
  </section>
  <nav id="menu" data-widget="dialog" data-dialog-variant="navigation" aria-label="Menu">
    <button type="button" data-dialog-close hidden>Close</button><a href="#section-a" id="nav-link">Go</a>
  </nav>
  <button type="button" id="menu-trigger" data-dialog-open="menu">Menu</button>
  <section id="section-a"><h2>Section A</h2></section>`;

describe('dialogs', () => {
  let env: TestEnv;
  let cleanups: (() => void)[];
  const $ = (id: string) => document.getElementById(id)!;

  beforeEach(() => {
    vi.useFakeTimers();
    document.body.innerHTML = markup;
    env = testEnv();
    cleanups = [
      enhanceDialog($('cite'), env),
      enhanceDialog($('menu'), env),
      enhanceDialogTrigger($('trigger'), env),
      enhanceDialogTrigger($('menu-trigger'), env),
    ];
  });
  afterEach(() => {
    for (const cleanup of cleanups) cleanup();
    vi.useRealTimers();
  });

  it('is a hidden modal until its trigger opens it; focus moves in and the page is locked', () => {
    const dialog = $('cite');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.hidden).toBe(true);
    $('trigger').focus();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    $('trigger').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(dialog.hidden).toBe(false);
    expect($('trigger').getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(dialog.querySelector('[data-dialog-close]'));
    expect(isPageScrollLocked(document)).toBe(true);
  });

  it('closes on Escape after the close delay and returns focus to the trigger', () => {
    const dialog = $('cite');
    $('trigger').focus();
    $('trigger').click();
    press(document.activeElement!, 'Escape');
    expect(dialog.hidden).toBe(false);
    expect(dialog.classList.contains('is-closing')).toBe(true);
    vi.advanceTimersByTime(DIALOG_CLOSE_DELAY_MS - 1);
    expect(dialog.hidden).toBe(false);
    vi.advanceTimersByTime(1);
    expect(dialog.hidden).toBe(true);
    expect(document.activeElement).toBe($('trigger'));
    expect($('trigger').getAttribute('aria-expanded')).toBe('false');
    expect(isPageScrollLocked(document)).toBe(false);
  });

  it('closes with its close button, at once when reduced motion is asked for', () => {
    env.setReducedMotion(true);
    $('trigger').click();
    $('cite').querySelector<HTMLButtonElement>('[data-dialog-close]')!.click();
    expect($('cite').hidden).toBe(true);
    expect(document.activeElement).toBe($('trigger'));
  });

  it('traps Tab inside the dialog in both directions', () => {
    $('trigger').click();
    const close = $('cite').querySelector<HTMLElement>('[data-dialog-close]')!;
    const link = $('inner-link');
    link.focus();
    expect(press(link, 'Tab').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(close);
    expect(press(close, 'Tab', { shiftKey: true }).defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(link);
  });

  it('traps WebKitGTK\'s Shift+Tab too (its key is "Unidentified", its code "Tab")', () => {
    $('trigger').click();
    const close = $('cite').querySelector<HTMLElement>('[data-dialog-close]')!;
    expect(document.activeElement).toBe(close);
    expect(press(close, 'Unidentified', { code: 'Tab', shiftKey: true }).defaultPrevented).toBe(true);
    expect(document.activeElement).toBe($('inner-link'));
    // Another unnamed key is not a Tab.
    expect(press($('inner-link'), 'Unidentified', { code: 'KeyQ' }).defaultPrevented).toBe(false);
    expect(document.activeElement).toBe($('inner-link'));
  });

  it('brings focus back when it escapes to the page behind', () => {
    $('trigger').click();
    $('menu-trigger').focus();
    expect($('cite').contains(document.activeElement)).toBe(true);
  });

  it('lets focus go to a modal opened on top of it (the consent <dialog> of the shell)', () => {
    $('trigger').click();
    const consent = document.createElement('dialog');
    consent.innerHTML = '<button type="button" id="consent-save">Save</button>';
    document.body.append(consent);
    consent.setAttribute('open', '');
    $('consent-save').focus();
    expect(document.activeElement).toBe($('consent-save'));
    consent.remove();
  });

  it('a navigation dialog closes at once when a link is followed, without pulling focus back', () => {
    $('menu-trigger').click();
    expect($('menu').hidden).toBe(false);
    $('nav-link').click();
    expect($('menu').hidden).toBe(true);
    // Keyboard focus lands on the link's target, not back on the menu button.
    expect(document.activeElement).toBe($('section-a'));
    expect(isPageScrollLocked(document)).toBe(false);
  });

  it('a trigger whose dialog is not enhanced keeps its native jump', () => {
    for (const cleanup of cleanups) cleanup();
    cleanups = [enhanceDialogTrigger($('trigger'), env)];
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    $('trigger').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
  });

  it('cleanup while open closes it and unlocks the page', () => {
    $('trigger').click();
    for (const cleanup of cleanups) cleanup();
    cleanups = [];
    expect(isPageScrollLocked(document)).toBe(false);
    expect($('cite').hasAttribute('role')).toBe(false);
    expect($('cite').hidden).toBe(false);
  });
});
