import type { ReactElement } from 'react';
import type { FastifyReply } from 'fastify';
import type { PageConfig } from 'contracts';
import { ContactPage } from './ContactPage.js';
import { Layout } from '../pages/Layout.js';
import { renderPage } from '../pages/renderPage.js';
import type { ContactFieldError, ContactFormValues } from './contactForm.js';
import { CONTACT_REFERENCE_LENGTH } from './contactLimits.js';

/** Path of the contact page and of its form post. */
export const CONTACT_PATH = '/contact';

/** A reference in a `?sent=` link: a request id prefix (base64url). Anything else shows the form. */
const REFERENCE_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${CONTACT_REFERENCE_LENGTH}}$`);

export interface ContactPageState {
  pageConfig: PageConfig;
  /** URL of the client runtime script for `Layout`. */
  runtimeUrl: string;
  /** Values shown again after a validation error. Default empty. */
  values?: ContactFormValues;
  /** Validation errors. Default none. */
  errors?: readonly ContactFieldError[];
  /** `?sent=` of the URL: shows the confirmation when it is a well-formed reference. */
  sent?: unknown;
  /** Renders the page with its islands rendered by their remotes. Default: `renderPage` (placeholders). */
  render?: (page: ReactElement) => Promise<string> | string;
}

/**
 * Renders the contact page into `reply` (HTML, not cached, not indexed) with a fresh CSRF
 * token in the form's hidden `_csrf` field; the token's secret cookie is set when the
 * visitor has none yet. Returns the HTML to send.
 * `contactRoutes` serves `GET /contact` with it.
 */
export async function renderContactPage(reply: FastifyReply, state: ContactPageState): Promise<string> {
  const { pageConfig, runtimeUrl, values, errors = [] } = state;
  const sentReference = typeof state.sent === 'string' && REFERENCE_PATTERN.test(state.sent) ? state.sent : undefined;
  const csrfToken = sentReference ? undefined : await reply.generateCsrf();
  // The page holds a per-visitor token: shared caches must not keep it.
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
  const title = errors.length > 0 ? 'Error: Contact' : sentReference ? 'Request sent' : 'Contact';
  return (state.render ?? renderPage)(
    <Layout title={title} config={pageConfig} runtimeUrl={runtimeUrl} pageClass="page-contact">
      <ContactPage action={CONTACT_PATH} csrfToken={csrfToken} values={values} errors={errors} sentReference={sentReference} />
    </Layout>,
  );
}
