// The consent markup the shell's server renders and its browser runtime drives: one spelling for both.

/** Id of the consent panel (a `<dialog>`); links to `#cookie-banner` (the footer's "Cookie settings") open it. */
export const CONSENT_PANEL_ID = 'cookie-banner';
/** Id of the consent banner of a first visit (hidden in the markup, shown by the runtime). */
export const CONSENT_BANNER_ID = 'consent-banner';
/** Where the visitor's answer lives in the browser (`localStorage`): the shell alone reads and writes it. */
export const CONSENT_STORAGE_KEY = 'khs:consent';
