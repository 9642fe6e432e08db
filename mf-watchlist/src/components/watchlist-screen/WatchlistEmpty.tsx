import { BookmarkIcon } from './BookmarkIcon.js';

export interface WatchlistEmptyProps {
  /** Empty-state text, e.g. "You have not saved any articles yet." */
  text: string;
}

/** Empty state of the watchlist: a bookmark icon and a short text. */
export function WatchlistEmpty({ text }: WatchlistEmptyProps) {
  return (
    <p className="khs-watchlist-screen__empty">
      <BookmarkIcon size={32} />
      <span>{text}</span>
    </p>
  );
}
