/** A piece of highlighted text: `highlighted` pieces were matched by the query. */
export interface HighlightSegment {
  text: string;
  highlighted: boolean;
}

/**
 * InstantSearch's highlight placeholders. The search list asks for them as `highlightPreTag` /
 * `highlightPostTag`; the adapter then rewrites the server's `<mark>` tags into them (they are
 * never sent to the server), so a literal `<mark>` in a document stays text.
 */
export const HIGHLIGHT_PRE_TAG = '__ais-highlight__';
export const HIGHLIGHT_POST_TAG = '__/ais-highlight__';
const PRE_TAG = HIGHLIGHT_PRE_TAG;
const POST_TAG = HIGHLIGHT_POST_TAG;
const TAG_PATTERN = /(__ais-highlight__|__\/ais-highlight__)/;

/**
 * Splits a highlighted value (hits read with `escapeHTML: false`) into plain segments. Only the
 * highlight placeholders are interpreted; any markup in the value stays literal text, so
 * rendering the segments as React text nodes can never inject HTML from the index.
 */
export function parseHighlight(value: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  let highlighted = false;
  for (const part of value.split(TAG_PATTERN)) {
    if (part === PRE_TAG) {
      highlighted = true;
    } else if (part === POST_TAG) {
      highlighted = false;
    } else if (part !== '') {
      const last = segments[segments.length - 1];
      if (last && last.highlighted === highlighted) last.text += part;
      else segments.push({ text: part, highlighted });
    }
  }
  return segments;
}

/**
 * Highlights every case-insensitive occurrence of `query` in `text` (autocomplete suggestions
 * match by containment, specification point 5). An empty query highlights nothing.
 */
export function highlightContainment(text: string, query: string): HighlightSegment[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return text === '' ? [] : [{ text, highlighted: false }];
  const haystack = text.toLocaleLowerCase();
  const segments: HighlightSegment[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    if (at > from) segments.push({ text: text.slice(from, at), highlighted: false });
    segments.push({ text: text.slice(at, at + needle.length), highlighted: true });
    from = at + needle.length;
  }
  if (from < text.length) segments.push({ text: text.slice(from), highlighted: false });
  return segments;
}
