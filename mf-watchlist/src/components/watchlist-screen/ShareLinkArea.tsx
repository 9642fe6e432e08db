import { useId } from 'react';

export interface ShareLinkAreaProps {
  sharingUrl: string;
  /** Label of the area and its link field, e.g. "Share your watchlist". */
  label: string;
  /** Copy button text, e.g. "Copy link". */
  copyLabel: string;
  /** Confirmation text, e.g. "Link copied". */
  copiedLabel: string;
  /** The confirmation is showing. */
  copied: boolean;
  onCopy(): void;
}

/**
 * The sharing link (read-only, selectable) with a copy button. The confirmation lives in a
 * polite live region that is always present, so its change is announced.
 */
export function ShareLinkArea({ sharingUrl, label, copyLabel, copiedLabel, copied, onCopy }: ShareLinkAreaProps) {
  const fieldId = useId();
  return (
    <div className="khs-watchlist-screen__share">
      <label htmlFor={fieldId}>{label}</label>
      <div className="khs-watchlist-screen__share-row">
        <input id={fieldId} type="url" readOnly value={sharingUrl} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={onCopy}>
          {copyLabel}
        </button>
      </div>
      <p className="khs-watchlist-screen__copied" role="status" aria-live="polite">
        {copied ? copiedLabel : ''}
      </p>
    </div>
  );
}
