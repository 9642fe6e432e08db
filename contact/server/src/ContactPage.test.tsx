import { describe, expect, it } from 'vitest';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import type { PageFragment } from 'contracts';
import { ContactPage, CONTACT_PRIVACY_DIALOG_ID } from './ContactPage.js';
import { renderPageFragment } from './fragment/renderPageFragment.js';

/** Server markup parsed as a browser would, before any script runs (jsdom as a parser only). */
function parse(html: string): HTMLElement {
  const host = (new JSDOM('') as { window: Window }).window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

/** The fragment with every island's placeholder in place (what the shell shows when mf-widgets fails). */
function withPlaceholders(fragment: PageFragment): string {
  return fragment.html.replace(/<!--khs-fragment-island:(\d+)-->/g, (_marker, index: string) => fragment.islands[Number(index)]!.placeholderHtml);
}

const render = (page: React.ReactElement) => renderPageFragment(page, { title: 'Contact', pageClass: 'page-contact' });

describe('contact page', () => {
  it('asks mf-widgets for the file and password fields, the privacy dialog and its trigger, with server-only props', async () => {
    const errors = [{ field: 'password' as const, message: 'The request password needs at least 12 characters, or leave it empty.' }];
    const fragment = render(<ContactPage errors={errors} />);
    const html = withPlaceholders(fragment);
    expect(fragment.islands.map((island) => island.name)).toEqual([
      'mf-widgets/DialogTrigger',
      'mf-widgets/FileField',
      'mf-widgets/PasswordField',
      'mf-widgets/Dialog',
    ]);
    const byName = Object.fromEntries(fragment.islands.map((island) => [island.name, { ...island.props, ...island.serverProps }]));
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
    const page = parse(withPlaceholders(render(<ContactPage errors={[{ field: 'attachment', message: 'Too large.' }]} />)));
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
