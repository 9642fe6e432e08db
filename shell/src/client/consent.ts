import type { ConsentState, PageBus } from 'contracts';

/** Where the shell keeps the visitor's consent (the shell alone reads and writes it). */
export const CONSENT_STORAGE_KEY = 'khs:consent';
/** Id of the server-rendered consent panel; links to `#cookie-banner` open it. */
export const CONSENT_PANEL_ID = 'cookie-banner';

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

function saveConsent(consent: ConsentState): void {
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
