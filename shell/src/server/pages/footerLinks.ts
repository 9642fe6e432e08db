import { SERVICE_FORM_PAGE_PATHS } from 'contracts';
import { SLICES, type SliceManifest } from '@khs/stack/registry';

/** A link in the site's footer that a slice asked for. */
export interface FooterLink {
  href: string;
  text: string;
}

/**
 * The footer links the slices' manifests ask for: each form page of a service's edge policy with a
 * `footerLink` text (checked at start with the edge policy, `parseFormPage`), in the slices' order.
 */
export function footerLinksOf(slices: readonly SliceManifest[]): FooterLink[] {
  return slices.flatMap((slice) =>
    ((slice.service?.edgePolicy.formPages ?? []) as { page?: unknown; footerLink?: unknown }[]).flatMap((page) =>
      typeof page.footerLink === 'string' && typeof page.page === 'string' && Object.hasOwn(SERVICE_FORM_PAGE_PATHS, page.page)
        ? [{ href: SERVICE_FORM_PAGE_PATHS[page.page as keyof typeof SERVICE_FORM_PAGE_PATHS].page, text: page.footerLink }]
        : [],
    ),
  );
}

/** The site's footer links, from the manifests the registry discovered at start. */
export const SITE_FOOTER_LINKS: readonly FooterLink[] = footerLinksOf(SLICES);
