import { CONSENT_PANEL_ID } from '../../shared/consentMarkup.js';

/** The consent control panel; the shell runtime opens it for links to `#cookie-banner`. */
export function ConsentPanel() {
  return (
    <dialog id={CONSENT_PANEL_ID} className="consent-panel" aria-labelledby="consent-title">
      <form method="dialog">
        <h2 id="consent-title">Privacy settings</h2>
        <p>We only measure what you allow. You can change this at any time.</p>
        <label>
          <input type="checkbox" name="insights" /> Search insights (which results help visitors)
        </label>
        <label>
          <input type="checkbox" name="tracking" /> Site-search statistics
        </label>
        <button type="submit">Save settings</button>
      </form>
    </dialog>
  );
}
