import { CONSENT_BANNER_ID } from '../../shared/consentMarkup.js';

/**
 * The consent banner a visitor sees on a first page: allow, refuse (equal weight), or choose in the
 * consent panel; then a confirmation that says where to change it. The same markup is in every page
 * (no cookie decides it, so pages stay shared-cacheable) and hidden: the shell's client runtime shows
 * it when the browser holds no answer yet (`khs:consent`). Without scripts nothing is measured, so
 * nothing is asked. Placed last in `<body>` and sticky at the viewport's foot: it pushes nothing on
 * the page (no layout shift), covers nothing at the end of the page, and the page works unanswered.
 */
export function ConsentBanner() {
  return (
    <section id={CONSENT_BANNER_ID} className="consent-banner" aria-labelledby="consent-banner-title" hidden>
      <div className="consent-banner__inner">
        <div className="consent-banner__question" data-consent-question="">
          <h2 id="consent-banner-title" className="consent-banner__title">
            May we measure how search is used?
          </h2>
          <p className="consent-banner__text">
            With your permission we count searches and the results you open, to improve search. Nothing is measured until you
            allow it.
          </p>
          <div className="consent-banner__actions">
            <button type="button" data-consent-answer="allow">
              Allow
            </button>
            <button type="button" data-consent-answer="refuse">
              Refuse
            </button>
            <button type="button" className="consent-banner__choose" data-consent-answer="choose" aria-haspopup="dialog">
              Choose
            </button>
          </div>
        </div>
        <div className="consent-banner__confirmation" data-consent-confirmation="" tabIndex={-1} hidden>
          <p className="consent-banner__text">Your choice is saved. You can change it at any time under “Cookie settings” at the foot of every page.</p>
          <button type="button" data-consent-hide="">
            Hide this message
          </button>
        </div>
      </div>
    </section>
  );
}
