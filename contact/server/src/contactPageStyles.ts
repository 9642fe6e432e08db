// The contact page's own look, sent with its page fragment (`PageFragment.styles`) and placed in the
// page's head by the shell: the team changes it with its own release. Selectors stay within the
// page's own classes; values are literal, not the shell's custom properties.

/** CSS of the contact form, its error summary and its field errors. */
export const CONTACT_PAGE_STYLES = `
.page-contact .error-summary { border: 2px solid #b3261e; border-radius: 8px; padding: 0.75rem 1rem; margin-bottom: 1rem; background: #fdecea; }
.page-contact .error-summary:focus { outline: 3px solid #f5a623; }
.page-contact .form-field__error { color: #b3261e; font-weight: 600; margin: 0.25rem 0 0; }
.page-contact .contact-form { display: flex; flex-direction: column; gap: 1rem; max-width: 36rem; }
.page-contact .form-field { display: flex; flex-direction: column; gap: 0.35rem; }
.page-contact .form-field input, .page-contact .form-field textarea { font: inherit; padding: 0.5rem; border: 1px solid #8a96a3; border-radius: 8px; }
.page-contact .form-field__hint { margin: 0; color: #5a6470; font-size: 0.9rem; }
`.trim();
