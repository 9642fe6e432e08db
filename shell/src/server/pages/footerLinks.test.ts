import type { SliceManifest } from '@khs/stack/registry';
import { describe, expect, it } from 'vitest';
import { footerLinksOf, SITE_FOOTER_LINKS } from './footerLinks.js';

const withFormPage = (formPage: Record<string, unknown>): SliceManifest =>
  ({ name: 'team-a', team: 'A', service: { name: 'a', edgePolicy: { routes: [], formPages: [formPage] } } }) as unknown as SliceManifest;

describe('footer links the slices ask for', () => {
  it('links a form page that declares a footerLink, at its path; none without one', () => {
    expect(footerLinksOf([withFormPage({ page: 'contact', footerLink: 'Write to us' })])).toEqual([{ href: '/contact', text: 'Write to us' }]);
    expect(footerLinksOf([withFormPage({ page: 'contact' })])).toEqual([]);
  });

  it("the site's footer links come from the manifests (the contact slice's form page)", () => {
    expect(SITE_FOOTER_LINKS).toEqual([{ href: '/contact', text: 'Contact' }]);
  });
});
