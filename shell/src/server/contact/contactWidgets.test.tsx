import { describe, expect, it } from 'vitest';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { renderToStaticMarkup } from 'react-dom/server';
import { ContactPage, CONTACT_PRIVACY_DIALOG_ID } from './ContactPage.js';

/** Server markup parsed as a browser would, before any script runs (jsdom as a parser only). */
function parse(html: string): HTMLElement {
  const host = (new JSDOM('') as { window: Window }).window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

describe('contact page markup', () => {
  const page = parse(renderToStaticMarkup(<ContactPage />));

  it('is a plain multipart form with a password field, a file field and a privacy dialog', () => {
    const form = page.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('enctype')).toBe('multipart/form-data');
    const password = page.querySelector('[data-widget="password-toggle"]')!;
    expect(password.querySelector('input')!.getAttribute('type')).toBe('password');
    expect(password.querySelector('[data-password-toggle]')!.hasAttribute('hidden')).toBe(true);
    const file = page.querySelector('[data-widget="file-upload"]')!;
    expect(file.querySelector('input')!.getAttribute('type')).toBe('file');
    expect(file.querySelector('[data-file-name]')!.getAttribute('data-empty-text')).toBe('No file chosen');
    const dialog = page.querySelector(`#${CONTACT_PRIVACY_DIALOG_ID}[data-widget="dialog"]`)!;
    expect(page.querySelector(`a[data-dialog-open="${CONTACT_PRIVACY_DIALOG_ID}"]`)!.getAttribute('href')).toBe(`#${CONTACT_PRIVACY_DIALOG_ID}`);
    expect(dialog.querySelector('a[href="#cookie-banner"]')).not.toBeNull();
    // Every input has a label.
    for (const input of page.querySelectorAll('input, textarea')) {
      expect(page.querySelector(`label[for="${input.id}"]`), input.id).not.toBeNull();
    }
  });
});
