import { foldedEnd, type Token, tokenizeWithOffsets } from '../text/tokenize.js';
import type { MatchedTerm } from './text-match.js';

export interface HighlightOptions {
  matchedTerms: Map<string, MatchedTerm>;
  startTag: string;
  endTag: string;
  affixNumTokens: number;
  snippetThreshold: number;
}

/** Highlight of one string value. */
export interface ValueHighlight {
  matchedTokens: string[];
  snippet: string;
  value: string;
  matched: boolean;
}

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

/** Where to end the mark for a token, or -1 when it did not match. */
function markEnd(token: Token, matchedTerms: Map<string, MatchedTerm>): number {
  const match = matchedTerms.get(token.term);
  if (!match) return -1;
  if (match.prefix && match.queryLength < token.term.length) {
    // Prefix match: wrap only the typed part ("<mark>iPh</mark>one").
    return foldedEnd(token, Math.max(match.queryLength, 1) - 1);
  }
  return token.end;
}

function render(text: string, from: number, to: number, tokens: Token[], ends: number[], first: number, last: number, options: HighlightOptions, collected: string[]): string {
  let out = '';
  let cursor = from;
  for (let i = first; i <= last; i++) {
    const end = ends[i] as number;
    if (end < 0) continue;
    const token = tokens[i] as Token;
    const marked = text.slice(token.start, end);
    out += text.slice(cursor, token.start) + options.startTag + marked + options.endTag;
    if (!collected.includes(marked)) collected.push(marked);
    cursor = end;
  }
  return out + text.slice(cursor, to);
}

/**
 * Highlights one string: `value` has every matched word wrapped; `snippet`
 * is the whole text when it has fewer than `snippet_threshold` words,
 * otherwise the first match with `highlight_affix_num_tokens` words each side.
 */
export function highlightText(text: string, options: HighlightOptions, withValue = true): ValueHighlight {
  const tokens = tokenizeWithOffsets(text);
  const ends = tokens.map((token) => markEnd(token, options.matchedTerms));
  const firstMatch = ends.findIndex((end) => end >= 0);
  if (firstMatch < 0) return { matchedTokens: [], snippet: text, value: text, matched: false };
  const short = tokens.length < options.snippetThreshold;
  const valueTokens: string[] = [];
  // The full highlighted value is only rendered when asked for (highlight_full_fields) or when it is the snippet.
  const value = withValue || short ? render(text, 0, text.length, tokens, ends, 0, tokens.length - 1, options, valueTokens) : '';
  if (short) return { matchedTokens: valueTokens, snippet: value, value, matched: true };
  const first = Math.max(0, firstMatch - options.affixNumTokens);
  const last = Math.min(tokens.length - 1, firstMatch + options.affixNumTokens);
  // Snippets start and end at whitespace, so punctuation glued to a word stays.
  let from = (tokens[first] as Token).start;
  while (from > 0 && !isSpace(text[from - 1])) from--;
  let to = (tokens[last] as Token).end;
  while (to < text.length && !isSpace(text[to])) to++;
  const snippetTokens: string[] = [];
  const snippet = render(text, from, to, tokens, ends, first, last, options, snippetTokens);
  return { matchedTokens: snippetTokens, snippet, value, matched: true };
}
