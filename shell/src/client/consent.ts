import type { ConsentState, PageBus } from 'contracts';
import { CONSENT_PANEL_ID, CONSENT_STORAGE_KEY } from '../shared/consentMarkup.js';

export { CONSENT_PANEL_ID, CONSENT_STORAGE_KEY };

const NO_CONSENT: ConsentState = { insights: false, tracking: false };

/** Current consent; nothing is allowed until the visitor says so. */
export function readConsent(): ConsentState {
  try {
    const value = JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null') as Partial<ConsentState> | null;
    return { insights: value?.insights === true, tracking: value?.tracking === true };
  } catch {
    return NO_CONSENT;
  }
}

/** True when the visitor answered (allowed, refused or chose) in this browser: no banner then. */
export function hasConsentAnswer(): boolean {
  try {
    const value = JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null') as unknown;
    return typeof value === 'object' && value !== null;
  } catch {
    // Unreadable storage (blocked, or garbage in it): ask, the answer is saved over it.
    return false;
  }
}

/** Keeps the visitor's answer in this browser (for this page only when storage refuses it). */
export function saveConsent(consent: ConsentState): void {
  try {
    localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify(consent));
  } catch (error) {
    console.error('[shell] consent could not be saved; it applies to this page only', error);
  }
}

/**
 * The consent control panel: a server-rendered `<dialog>` opened on `consent-panel-requested`;
 * saving emits `consent-changed` so insights and tracking follow at once.
 */
export function startConsentPanel(doc: Document, bus: PageBus): () => void {
  const dialog = doc.getElementById(CONSENT_PANEL_ID);
  if (!(dialog instanceof HTMLDialogElement)) return () => {};
  const form = dialog.querySelector('form');
  const checkbox = (name: keyof ConsentState) => form?.querySelector<HTMLInputElement>(`input[name="${name}"]`);

  const open = () => {
    const consent = readConsent();
    const insights = checkbox('insights');
    const tracking = checkbox('tracking');
    if (insights) insights.checked = consent.insights;
    if (tracking) tracking.checked = consent.tracking;
    if (!dialog.open) dialog.showModal();
  };
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const consent: ConsentState = { insights: checkbox('insights')?.checked === true, tracking: checkbox('tracking')?.checked === true };
    saveConsent(consent);
    dialog.close();
    bus.emit('consent-changed', consent);
  };
  const off = bus.on('consent-panel-requested', open);
  form?.addEventListener('submit', onSubmit);
  return () => {
    off();
    form?.removeEventListener('submit', onSubmit);
  };
}

/** True for a plain left click (no modifier) that nothing handled yet. */
function isPlainClick(event: MouseEvent): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Links to the panel (`a[href="#cookie-banner"]`, the footer's "Cookie settings", one in a page's
 * text) open it as soon as this runtime runs: one listener on the document, not each link's
 * enhancement at idle. A click before the runtime ran left `#cookie-banner` in the address: the
 * panel opens at start then.
 */
export function startCookieSettingsLinks(doc: Document, bus: PageBus): () => void {
  const onClick = (event: MouseEvent) => {
    const link = event.target instanceof Element ? event.target.closest(`a[href="#${CONSENT_PANEL_ID}"]`) : null;
    if (!link || !isPlainClick(event)) return;
    event.preventDefault();
    bus.emit('consent-panel-requested', { source: 'shell/cookie-settings-link' });
  };
  doc.addEventListener('click', onClick);
  if (doc.defaultView?.location.hash === `#${CONSENT_PANEL_ID}`) bus.emit('consent-panel-requested', { source: 'shell/address' });
  return () => doc.removeEventListener('click', onClick);
}
