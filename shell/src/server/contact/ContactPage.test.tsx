import { describe, expect, it } from 'vitest';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { renderToStaticMarkup } from 'react-dom/server';
import { examplePageConfig } from 'contracts';
import { renderPageWithIslands } from '../federation/islandCollector.js';
import type { IslandRequest, ServerIslands } from '../federation/serverIslands.js';
import { ContactPage, CONTACT_PRIVACY_DIALOG_ID } from './ContactPage.js';

/** Server markup parsed as a browser would, before any script runs (jsdom as a parser only). */
function parse(html: string): HTMLElement {
  const host = (new JSDOM('') as { window: Window }).window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

/** Server islands that record what the page asks for and fail every render (placeholders stay). */
function recordingIslands(): ServerIslands & { seen: IslandRequest[] } {
  const seen: IslandRequest[] = [];
  return {
    seen,
    async renderAll(requests: IslandRequest[]) {
      seen.push(...requests);
      return requests.map(() => ({ ok: false, stage: 'render', ms: 1 }));
    },
    stylesheets: () => [],
    firstViewScripts: () => [],
  } as unknown as ServerIslands & { seen: IslandRequest[] };
}

describe('contact page', () => {
  it('asks mf-widgets for the file and password fields, the privacy dialog and its trigger, with server-only props', async () => {
    const islands = recordingIslands();
    const errors = [{ field: 'password' as const, message: 'The request password needs at least 12 characters, or leave it empty.' }];
    const html = await renderPageWithIslands(<ContactPage errors={errors} />, islands, { config: examplePageConfig(), url: '/contact' });
    expect(islands.seen.map((request) => request.name)).toEqual([
      'mf-widgets/DialogTrigger',
      'mf-widgets/FileField',
      'mf-widgets/PasswordField',
      'mf-widgets/Dialog',
    ]);
    const byName = Object.fromEntries(islands.seen.map((request) => [request.name, request.props]));
    expect(byName['mf-widgets/PasswordField']).toMatchObject({ id: 'contact-password', name: 'password', error: errors[0]!.message });
    expect(byName['mf-widgets/FileField']).toMatchObject({ id: 'contact-attachment', name: 'attachment', label: 'Attach a file (optional)' });
    expect(byName['mf-widgets/DialogTrigger']).toEqual({ dialogId: CONTACT_PRIVACY_DIALOG_ID, label: 'privacy notice' });
    expect(byName['mf-widgets/Dialog']).toMatchObject({ id: CONTACT_PRIVACY_DIALOG_ID, title: 'Privacy notice' });
    expect(String(byName['mf-widgets/Dialog']!.bodyHtml)).toContain('<a href="#cookie-banner">cookie settings</a>');
    // Server-only: none of it is written into the page.
    for (const island of parse(html).querySelectorAll('[data-island^="mf-widgets/"]')) expect(island.getAttribute('data-props')).toBe('{}');
    // The trigger sits inside the sentence: an inline island, so the paragraph stays one paragraph.
    expect(parse(html).querySelector('p > span.island--inline[data-island="mf-widgets/DialogTrigger"] > a')!.getAttribute('href')).toBe(
      `#${CONTACT_PRIVACY_DIALOG_ID}`,
    );
  });

  it('without mf-widgets it is still a plain multipart form: labelled file and password inputs, the notice in place', () => {
    const page = parse(renderToStaticMarkup(<ContactPage errors={[{ field: 'attachment', message: 'Too large.' }]} />));
    const form = page.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('enctype')).toBe('multipart/form-data');
    const file = form.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect([file.name, file.id]).toEqual(['attachment', 'contact-attachment']);
    expect(file.getAttribute('aria-invalid')).toBe('true');
    expect(file.getAttribute('aria-describedby')).toBe('contact-attachment-error contact-attachment-hint');
    expect(form.querySelector<HTMLInputElement>('input[type="password"]')!.name).toBe('password');
    // No widget markup of the shell's own: that is mf-widgets'.
    expect(page.querySelector('[data-widget], [class*="khs-"]')).toBeNull();
    expect(page.querySelector(`a[href="#${CONTACT_PRIVACY_DIALOG_ID}"]`)!.textContent).toBe('privacy notice');
    const notice = page.querySelector(`section#${CONTACT_PRIVACY_DIALOG_ID}`)!;
    expect(notice.querySelector('h2')!.textContent).toBe('Privacy notice');
    expect(notice.querySelector('a[href="#cookie-banner"]')).not.toBeNull();
    // Every input has a label.
    for (const input of page.querySelectorAll('input:not([type="hidden"]), textarea')) {
      expect(page.querySelector(`label[for="${input.id}"]`), input.id).not.toBeNull();
    }
  });
});
