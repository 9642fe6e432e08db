import { tokenize } from '../text/tokenize.js';

/**
 * Dynamic curation (Typesense's `{field}` placeholders in a rule's `query` or `filter_by`),
 * ported from `src/index.cpp` `Index::process_filter_sort_curations`, `resolve_curation` and
 * `check_for_curations`: a placeholder absorbs the query words that form a whole value of that
 * field in some document, and the item's `filter_by` / `sort_by` get those words in its place.
 */

/** One part of a rule: a literal word or a `{field}` placeholder. */
export type RulePart = { word: string } | { field: string };

/** Answers whether some document's `field` (or one element of it) consists of exactly these words, in order. */
export type FieldValueLookup = (field: string, words: string[]) => boolean;

/** What a resolved dynamic rule gives: the words each placeholder absorbed. */
export interface ResolvedPlaceholders {
  /** Per placeholder field: the absorbed words, in query order. */
  values: Map<string, string[]>;
  /** Every absorbed word (removed from the query with `remove_matched_tokens`). */
  absorbed: Set<string>;
}

/** Typesense marks a rule dynamic when a `{` is followed somewhere by a `}` (src/curation.cpp). */
export function hasPlaceholder(text: string | undefined): boolean {
  return text !== undefined && /\{[^]*\}/.test(text);
}

/** Spaces inside curly braces go (`{ brand }` → `{brand}`), as `StringUtils::trim_curly_spaces` does. */
function trimCurlySpaces(text: string): string {
  return text.replace(/\{\s*([^{}]*?)\s*\}/g, '{$1}');
}

const PLACEHOLDER_TOKEN = /^\{([^{}]+)\}$/;

/**
 * A rule query's parts: Typesense normalises the query (words folded, `{ } * .` kept, the
 * tokenizer's placeholder mode keeps a field name's case) and splits it on spaces; a token in
 * braces is a placeholder.
 */
export function ruleQueryParts(query: string): RulePart[] {
  const parts: RulePart[] = [];
  for (const token of trimCurlySpaces(query).split(/\s+/)) {
    const placeholder = PLACEHOLDER_TOKEN.exec(token);
    if (placeholder) parts.push({ field: placeholder[1] as string });
    else for (const word of tokenize(token)) parts.push({ word });
  }
  return parts;
}

/**
 * A filter expression's values as dynamic filter rules compare them (the lambda
 * `tokenize_filter_str`): the clauses split at `:`, operators and brackets trimmed off each side.
 */
export function filterRuleTokens(filterBy: string): string[] {
  const clauses: string[] = [];
  let current = '';
  let inQuote = false;
  for (let i = 0; i < filterBy.length; i++) {
    const ch = filterBy[i] as string;
    if (ch === '`') inQuote = !inQuote;
    const pair = filterBy.slice(i, i + 2);
    if (!inQuote && (ch === '(' || ch === ')' || pair === '&&' || pair === '||')) {
      clauses.push(current);
      current = '';
      if (pair === '&&' || pair === '||') i++;
      continue;
    }
    current += ch;
  }
  clauses.push(current);
  const tokens: string[] = [];
  for (const clause of clauses) {
    for (const piece of clause.split(':')) {
      const trimmed = piece.trim().replace(/^[^A-Za-z0-9{]+/, '').replace(/[^A-Za-z0-9}`]+$/, '');
      if (trimmed !== '') tokens.push(trimmed);
    }
  }
  return tokens;
}

/** A dynamic filter rule's parts: its tokens, those in braces are placeholders (case kept). */
export function filterRuleParts(filterBy: string): RulePart[] {
  return filterRuleTokens(trimCurlySpaces(filterBy)).map((token) => {
    const placeholder = PLACEHOLDER_TOKEN.exec(token);
    return placeholder ? { field: placeholder[1] as string } : { word: token };
  });
}

/**
 * `check_for_curations`: the longest run of `tokens` (then shorter ones, left to right; only runs
 * at the start unless `slide`) that is a whole value of `field`. Returns the tokens left from the
 * run's start on without the run's words, and the absorbed words; undefined when none fits.
 */
function absorbField(field: string, tokens: string[], slide: boolean, lookup: FieldValueLookup): { rest: string[]; absorbed: string[] } | undefined {
  for (let length = tokens.length; length > 0; length--) {
    for (let start = 0; start + length <= tokens.length; start++) {
      const window = tokens.slice(start, start + length);
      if (lookup(field, window)) {
        const windowWords = new Set(window);
        const tail = tokens.slice(start);
        return { rest: tail.filter((t) => !windowWords.has(t)), absorbed: tail.filter((t) => windowWords.has(t)) };
      }
      if (!slide) break;
    }
  }
  return undefined;
}

/**
 * `resolve_curation`: walks the rule parts against the query tokens. Consecutive placeholders
 * take the query tokens up to the next literal rule word and absorb field values from them (the
 * first may start anywhere, the following ones right after); literal words must appear in order
 * (with `exact`, without tokens between them). With `exact`, every query token must be absorbed
 * by a placeholder. Returns undefined when the rule does not resolve.
 */
export function resolvePlaceholders(rule: RulePart[], queryTokens: string[], exact: boolean, lookup: FieldValueLookup): ResolvedPlaceholders | undefined {
  const values = new Map<string, string[]>();
  const absorbed = new Set<string>();
  let resolved = false;
  let i = 0;
  let j = 0;
  while (i < rule.length) {
    const part = rule[i] as RulePart;
    if ('field' in part) {
      const fields: string[] = [];
      while (i < rule.length && 'field' in (rule[i] as RulePart)) fields.push((rule[i++] as { field: string }).field);
      const next = rule[i] as { word: string } | undefined;
      let matched: string[] = [];
      while (j < queryTokens.length && (next === undefined || next.word !== queryTokens[j])) matched.push(queryTokens[j++] as string);
      resolved = true;
      for (let k = 0; k < fields.length; k++) {
        const taken = absorbField(fields[k] as string, matched, k === 0, lookup);
        if (!taken) return undefined;
        matched = taken.rest;
        for (const word of taken.absorbed) absorbed.add(word);
        values.set(fields[k] as string, taken.absorbed);
      }
    } else {
      while (j < queryTokens.length && queryTokens[j] !== part.word) {
        if (exact) return undefined;
        j++;
      }
      if (j === queryTokens.length) return undefined;
      i++;
      j++;
    }
  }
  if (!resolved || (exact && queryTokens.length !== absorbed.size)) return undefined;
  return { values, absorbed };
}

/** Puts each placeholder's absorbed words (joined by a space) into `text` (an item's `filter_by` or `sort_by`). */
export function fillPlaceholders(text: string, resolved: ResolvedPlaceholders): string {
  let filled = text;
  for (const [field, words] of resolved.values) filled = filled.split(`{${field}}`).join(words.join(' '));
  return filled;
}
