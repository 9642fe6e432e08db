import type { ConsentState } from 'contracts';
import { SLICES, type SliceManifest } from '@khs/stack/registry';
import { CONSENT_PANEL_ID } from '../../shared/consentMarkup.js';

/** One checkbox of the privacy settings: a consent purpose and what it is for. */
export interface ConsentPurpose {
  purpose: keyof ConsentState;
  label: string;
}

/**
 * The consent purposes the slices' manifests say their code needs (`consent` in each
 * `slice.json`), in the slices' order; a purpose two slices need is one checkbox, their labels
 * joined. A purpose nobody needs has no checkbox (its consent stays off).
 */
export function consentPurposesOf(slices: readonly SliceManifest[]): ConsentPurpose[] {
  const labels = new Map<keyof ConsentState, string[]>();
  for (const { purpose, label } of slices.flatMap((slice) => slice.consent ?? [])) labels.set(purpose, [...(labels.get(purpose) ?? []), label]);
  return [...labels].map(([purpose, given]) => ({ purpose, label: given.join('; ') }));
}

/** The site's consent purposes, from the manifests the registry discovered. */
const SITE_CONSENT_PURPOSES = consentPurposesOf(SLICES);

/** The consent control panel; the shell runtime opens it for links to `#cookie-banner`. Default purposes: the site's. */
export function ConsentPanel({ purposes = SITE_CONSENT_PURPOSES }: { purposes?: readonly ConsentPurpose[] }) {
  return (
    <dialog id={CONSENT_PANEL_ID} className="consent-panel" aria-labelledby="consent-title">
      <form method="dialog">
        <h2 id="consent-title">Privacy settings</h2>
        <p>We only measure what you allow. You can change this at any time.</p>
        {purposes.map(({ purpose, label }) => (
          <label key={purpose}>
            <input type="checkbox" name={purpose} /> {label}
          </label>
        ))}
        <button type="submit">Save settings</button>
      </form>
    </dialog>
  );
}
