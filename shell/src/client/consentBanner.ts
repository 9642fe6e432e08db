import type { ConsentState, PageBus } from 'contracts';
import { CONSENT_BANNER_ID } from '../shared/consentMarkup.js';
import { hasConsentAnswer, saveConsent } from './consent.js';

const ALLOW_ALL: ConsentState = { insights: true, tracking: true };
const REFUSE_ALL: ConsentState = { insights: false, tracking: false };

/**
 * The consent banner of a first visit (server markup, hidden): shown at once when this browser holds
 * no answer, left hidden otherwise. "Allow" and "Refuse" save the answer and announce it
 * (`consent-changed`), "Choose" opens the consent panel; any answer (the panel's too) turns the
 * banner into a confirmation that takes the focus, and "Hide this message" hides it and gives the
 * focus back to the page's main content. Returns the function that stops it.
 */
export function startConsentBanner(doc: Document, bus: PageBus): () => void {
  const banner = doc.getElementById(CONSENT_BANNER_ID);
  if (!banner || hasConsentAnswer()) return () => {};
  const question = banner.querySelector<HTMLElement>('[data-consent-question]');
  const confirmation = banner.querySelector<HTMLElement>('[data-consent-confirmation]');
  banner.hidden = false;

  const confirm = () => {
    if (banner.hidden || !question || !confirmation || !question.isConnected) return;
    const hadFocus = banner.contains(doc.activeElement);
    question.hidden = true;
    confirmation.hidden = false;
    // The button pressed is gone: the focus goes to what replaced it (never lost to the body). An
    // answer given elsewhere (a link to the panel) leaves the focus where it is.
    if (hadFocus || doc.activeElement === doc.body) confirmation.focus({ preventScroll: true });
  };
  const hide = () => {
    const hadFocus = banner.contains(doc.activeElement);
    banner.hidden = true;
    if (hadFocus) doc.getElementById('main')?.focus({ preventScroll: true });
  };
  const answer = (consent: ConsentState) => {
    saveConsent(consent);
    bus.emit('consent-changed', consent);
  };
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target.closest('button') : null;
    if (!target) return;
    const choice = target.getAttribute('data-consent-answer');
    if (choice === 'allow') answer(ALLOW_ALL);
    else if (choice === 'refuse') answer(REFUSE_ALL);
    else if (choice === 'choose') bus.emit('consent-panel-requested', { source: 'shell/consent-banner' });
    else if (target.hasAttribute('data-consent-hide')) hide();
  };
  banner.addEventListener('click', onClick);
  const off = bus.on('consent-changed', confirm);
  return () => {
    banner.removeEventListener('click', onClick);
    off();
  };
}
