import type { PageFragment } from 'contracts';
import { ContactPage } from './ContactPage.js';
import { ContactProblemPage } from './ContactProblemPage.js';
import type { ContactFieldError, ContactFormValues } from './contactForm.js';
import { CONTACT_REFERENCE_LENGTH } from './contactLimits.js';
import { CONTACT_PAGE_STYLES } from './contactPageStyles.js';
import { renderPageFragment } from './fragment/renderPageFragment.js';

/** Path of the contact page and of its form post (the shell serves the page, the service gets the post). */
export const CONTACT_PATH = '/contact';

/** Class of the contact page's body. */
const PAGE_CLASS = 'page-contact';

/** A reference in a `?sent=` link: a request id prefix (base64url). Anything else shows the form. */
const REFERENCE_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${CONTACT_REFERENCE_LENGTH}}$`);

export interface ContactPageState {
  /** CSRF token for the form's hidden `_csrf` field, made by the edge. No field without it. */
  csrfToken?: string | undefined;
  /** Values shown again after a validation error. Default empty. */
  values?: ContactFormValues;
  /** Validation errors. Default none. */
  errors?: readonly ContactFieldError[];
  /** `?sent=` of the URL: shows the confirmation when it is a well-formed reference. */
  sent?: unknown;
}

/**
 * The contact page's content as a `PageFragment` (the shell wraps it in the site layout): the
 * form (with the edge's token in `_csrf`, the values and errors of a refused post), or the
 * confirmation when `sent` is a well-formed reference.
 */
export function renderContactFragment(state: ContactPageState): PageFragment {
  const { values, errors = [] } = state;
  const sentReference = typeof state.sent === 'string' && REFERENCE_PATTERN.test(state.sent) ? state.sent : undefined;
  const title = errors.length > 0 ? 'Error: Contact' : sentReference ? 'Request sent' : 'Contact';
  return renderPageFragment(
    <ContactPage action={CONTACT_PATH} csrfToken={sentReference ? undefined : state.csrfToken} values={values} errors={errors} sentReference={sentReference} />,
    { title, pageClass: PAGE_CLASS, styles: CONTACT_PAGE_STYLES },
  );
}

/** Statuses a refused post can have, each with its own explanation (`ContactProblemPage`). */
export const CONTACT_PROBLEM_STATUSES = [400, 403, 406, 413, 415, 429, 500, 503] as const;

/** The content of the page for a post refused before validation (nothing was stored). */
export function renderContactProblemFragment(status: number): PageFragment {
  return renderPageFragment(<ContactProblemPage status={status} />, { title: 'Request not sent', pageClass: PAGE_CLASS, styles: CONTACT_PAGE_STYLES });
}
