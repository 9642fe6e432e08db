// @vitest-environment node
import { describe, expect, it } from 'vitest';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { examplePageConfig, ISLAND_API_VERSION, ISLAND_CACHE_TTL_MS, type IslandRender, type IslandServerContext } from 'contracts';
import * as dialogIsland from './Dialog.server.js';
import * as dialogTriggerIsland from './DialogTrigger.server.js';
import * as fileFieldIsland from './FileField.server.js';
import * as passwordFieldIsland from './PasswordField.server.js';

const context: IslandServerContext = { config: examplePageConfig(), url: '/contact', signal: new AbortController().signal };

/** The island's server HTML, parsed as a browser would before any script runs. */
async function rendered(render: IslandRender, props: Record<string, unknown>): Promise<HTMLElement> {
  const { html } = await render(props, context);
  const host = (new JSDOM('') as { window: Window }).window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

describe('form and dialog islands (server renders)', () => {
  it('FileField: a labelled file input in the file-upload markup contract, error and hint linked', async () => {
    const field = await rendered(fileFieldIsland.render, {
      id: 'contact-attachment',
      name: 'attachment',
      label: 'Attach a file (optional)',
      accept: '.pdf',
      hint: 'PDF, up to 5 MB.',
      error: 'This file type is not accepted.',
    });
    const root = field.querySelector('[data-widget="file-upload"]')!;
    expect(root.className).toBe('khs-widgets-field khs-widgets-file-field');
    const input = root.querySelector('input')!;
    expect([input.type, input.name, input.id, input.accept]).toEqual(['file', 'attachment', 'contact-attachment', '.pdf']);
    expect(root.querySelector('label[for="contact-attachment"]')!.textContent).toBe('Attach a file (optional)');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('contact-attachment-error contact-attachment-hint');
    expect(root.querySelector('#contact-attachment-error')!.textContent).toBe('Error: This file type is not accepted.');
    expect(root.querySelector('[data-file-name]')!.getAttribute('data-empty-text')).toBe('No file chosen');
    expect(root.querySelector('[data-file-name]')!.hasAttribute('hidden')).toBe(true);
  });

  it('PasswordField: a password input with the hidden toggle of the password-toggle contract', async () => {
    const field = await rendered(passwordFieldIsland.render, { id: 'contact-password', name: 'password', label: 'Request password (optional)', hint: 'Optional.' });
    const root = field.querySelector('[data-widget="password-toggle"]')!;
    const input = root.querySelector('input')!;
    expect([input.type, input.name, input.autocomplete]).toEqual(['password', 'password', 'new-password']);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.getAttribute('aria-describedby')).toBe('contact-password-hint');
    const toggle = root.querySelector('button[data-password-toggle]')!;
    expect(toggle.hasAttribute('hidden')).toBe(true);
    expect(toggle.getAttribute('data-label-show')).toBe('Show password');
  });

  it('Dialog: the page-supplied content inside the dialog markup, readable in place without script', async () => {
    const dialog = await rendered(dialogIsland.render, { id: 'contact-privacy', title: 'Privacy notice', bodyHtml: '<p>We use your data <a href="#cookie-banner">only so</a>.</p>' });
    const root = dialog.querySelector('section#contact-privacy[data-widget="dialog"]')!;
    expect(root.getAttribute('aria-labelledby')).toBe('contact-privacy-title');
    expect(root.querySelector('#contact-privacy-title')!.textContent).toBe('Privacy notice');
    expect(root.getAttribute('data-dialog-variant')).toBe('generic');
    expect(root.querySelector('.khs-widgets-dialog__body > p > a[href="#cookie-banner"]')).not.toBeNull();
    expect(root.querySelector('[data-dialog-close]')!.hasAttribute('hidden')).toBe(true);
  });

  it('DialogTrigger: a link to the dialog, marked for the dialog-trigger enhancer', async () => {
    const trigger = await rendered(dialogTriggerIsland.render, { dialogId: 'contact-privacy', label: 'privacy notice' });
    const link = trigger.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('#contact-privacy');
    expect(link.getAttribute('data-dialog-open')).toBe('contact-privacy');
    expect(link.className).toBe('khs-widgets-dialog-trigger');
    expect(link.textContent).toBe('privacy notice');
  });

  it.each([
    ['FileField without a name', fileFieldIsland.render, { id: 'a', label: 'A' }, 'mf-widgets/FileField needs a string prop "name"'],
    ['PasswordField with a numeric hint', passwordFieldIsland.render, { id: 'a', name: 'p', label: 'P', hint: 3 }, 'mf-widgets/PasswordField: prop "hint" must be a string'],
    ['Dialog without content', dialogIsland.render, { id: 'd', title: 'T' }, 'mf-widgets/Dialog needs a string prop "bodyHtml"'],
    ['Dialog with an unknown variant', dialogIsland.render, { id: 'd', title: 'T', bodyHtml: '<p>x</p>', variant: 'drawer' }, 'variant must be "generic" or "navigation"'],
    ['DialogTrigger without props', dialogTriggerIsland.render, undefined, 'mf-widgets/DialogTrigger needs props'],
  ])('refuses %s (the shell keeps its placeholder)', async (_name, render, props, message) => {
    await expect(render(props as Record<string, unknown>, context)).rejects.toThrow(message);
  });

  it('every form island is a versioned server module whose markup the shell may reuse', () => {
    for (const island of [fileFieldIsland, passwordFieldIsland, dialogIsland, dialogTriggerIsland]) {
      expect(island.islandApiVersion).toBe(ISLAND_API_VERSION);
      expect(island.cacheTtlMs).toBe(ISLAND_CACHE_TTL_MS);
    }
  });
});
