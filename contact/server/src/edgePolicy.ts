import declaredPolicy from '../edge-policy.json';

/** The part of the service's edge policy (`server/edge-policy.json`) it enforces itself too. */
interface DeclaredFormPage {
  page: string;
  maxBodyBytes?: number;
}

const form = (declaredPolicy.formPages as DeclaredFormPage[]).find((entry) => entry.page === 'contact');
if (!form?.maxBodyBytes) throw new Error('server/edge-policy.json declares no contact form page with maxBodyBytes');

/**
 * Largest contact post (bytes), refused by its declared length at the edge and here: the largest
 * attachment (5 MB, spec) plus 1 MiB for the text fields and the multipart framing. Declared once,
 * in the edge policy.
 */
export const CONTACT_POST_MAX_BYTES: number = form.maxBodyBytes;
