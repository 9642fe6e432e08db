/** Decorative bookmark icon (hidden from assistive technology). */
export function BookmarkIcon({ size = 24 }: { /** Width and height in px. Default 24. */ size?: number }) {
  return (
    <svg className="khs-watchlist-bookmark-icon" aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 24 24">
      <path d="M6 3h12v18l-6-4-6 4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
    </svg>
  );
}
