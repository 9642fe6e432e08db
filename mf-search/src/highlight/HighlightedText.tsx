import type { HighlightSegment } from './parseHighlight.js';

export interface HighlightedTextProps {
  /** Segments from `parseHighlight` or `highlightContainment`. */
  segments: HighlightSegment[];
  /** Class of the `<mark>` around matched words. Default `khs-search-highlight`. */
  markClassName?: string;
}

/** Renders highlight segments as text nodes, matched words in `<mark>`; never raw HTML. */
export function HighlightedText({ segments, markClassName = 'khs-search-highlight' }: HighlightedTextProps) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.highlighted ? (
          <mark key={index} className={markClassName}>
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
