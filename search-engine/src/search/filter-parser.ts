import { ApiError } from '../api-error.js';

/** Comparison operators of a filter clause. */
export type FilterOperator = 'match' | 'notMatch' | 'exact' | 'notExact' | 'gt' | 'gte' | 'lt' | 'lte';

/** One value of a clause; numeric lists may hold ranges or per-item comparators. */
export interface FilterValue {
  text: string;
  /** `[a..b]` range (inclusive), raw bounds. */
  range?: [string, string];
  /** Per-item comparator inside a list, e.g. `[<10,>100]`. */
  operator?: FilterOperator;
}

export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'clause'; field: string; operator: FilterOperator; values: FilterValue[] };

const PARSE_ERROR = 'Could not parse the filter query.';
const MAX_NESTING = 64;

function fail(): never {
  throw new ApiError(400, PARSE_ERROR);
}

/**
 * Parses Typesense `filter_by` syntax: `field:value`, `field:=[a,b]`,
 * `field:!=v`, `field:!v`, comparators, `[a..b]` ranges, backtick literals,
 * `&&`, `||` and parentheses. Throws ApiError(400) on a syntax error.
 */
export function parseFilter(input: string): FilterNode {
  let pos = 0;
  const skipSpace = (): void => {
    while (pos < input.length && /\s/.test(input[pos] as string)) pos++;
  };
  const peek = (s: string): boolean => input.startsWith(s, pos);

  const parseOr = (): FilterNode => {
    let left = parseAnd();
    skipSpace();
    while (peek('||')) {
      pos += 2;
      left = { kind: 'or', left, right: parseAnd() };
      skipSpace();
    }
    return left;
  };
  const parseAnd = (): FilterNode => {
    let left = parsePrimary();
    skipSpace();
    while (peek('&&')) {
      pos += 2;
      left = { kind: 'and', left, right: parsePrimary() };
      skipSpace();
    }
    return left;
  };
  let depth = 0;
  const parsePrimary = (): FilterNode => {
    skipSpace();
    if (peek('(')) {
      pos++;
      // Deeply nested input would exhaust the stack; real filters nest a few levels.
      if (++depth > MAX_NESTING) fail();
      const inner = parseOr();
      depth--;
      skipSpace();
      if (!peek(')')) fail();
      pos++;
      return inner;
    }
    return parseClause();
  };
  const parseClause = (): FilterNode => {
    skipSpace();
    let field = '';
    if (peek('`')) {
      const end = input.indexOf('`', pos + 1);
      if (end < 0) fail();
      field = input.slice(pos + 1, end);
      pos = end + 1;
    } else {
      while (pos < input.length && input[pos] !== ':' && !/[\s()&|]/.test(input[pos] as string)) field += input[pos++];
    }
    skipSpace();
    if (!field || !peek(':')) fail();
    pos++;
    skipSpace();
    let operator: FilterOperator = 'match';
    for (const [token, op] of [
      ['!=', 'notExact'],
      ['>=', 'gte'],
      ['<=', 'lte'],
      ['!', 'notMatch'],
      ['>', 'gt'],
      ['<', 'lt'],
      ['=', 'exact'],
    ] as const) {
      if (peek(token)) {
        operator = op;
        pos += token.length;
        break;
      }
    }
    skipSpace();
    let values: FilterValue[];
    if (peek('[')) {
      const end = findListEnd(input, pos);
      values = splitListItems(input.slice(pos + 1, end)).map(parseListItem);
      pos = end + 1;
      if (values.length === 0) fail();
    } else {
      const start = pos;
      pos = findValueEnd(input, pos);
      const text = input.slice(start, pos).trim();
      if (!text) fail();
      values = [{ text: unquote(text) }];
    }
    return { kind: 'clause', field, operator, values };
  };

  const tree = parseOr();
  skipSpace();
  if (pos !== input.length) fail();
  return tree;
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('`') && text.endsWith('`')) return text.slice(1, -1);
  if (text.includes('`')) fail();
  return text;
}

function findListEnd(input: string, open: number): number {
  let inQuote = false;
  for (let i = open + 1; i < input.length; i++) {
    const ch = input[i];
    if (ch === '`') inQuote = !inQuote;
    else if (ch === ']' && !inQuote) return i;
  }
  return fail();
}

function findValueEnd(input: string, start: number): number {
  let inQuote = false;
  for (let i = start; i < input.length; i++) {
    const ch = input[i];
    if (ch === '`') inQuote = !inQuote;
    if (inQuote) continue;
    if (ch === ')' || input.startsWith('&&', i) || input.startsWith('||', i)) return i;
  }
  if (inQuote) fail();
  return input.length;
}

function splitListItems(body: string): string[] {
  const items: string[] = [];
  let current = '';
  let inQuote = false;
  for (const ch of body) {
    if (ch === '`') inQuote = !inQuote;
    if (ch === ',' && !inQuote) {
      items.push(current);
      current = '';
    } else current += ch;
  }
  if (inQuote) fail();
  items.push(current);
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

function parseListItem(item: string): FilterValue {
  if (item.startsWith('`')) return { text: unquote(item) };
  for (const [token, op] of [
    ['>=', 'gte'],
    ['<=', 'lte'],
    ['>', 'gt'],
    ['<', 'lt'],
  ] as const) {
    if (item.startsWith(token)) return { text: item.slice(token.length).trim(), operator: op };
  }
  const rangeAt = item.indexOf('..');
  if (rangeAt > 0) return { text: item, range: [item.slice(0, rangeAt).trim(), item.slice(rangeAt + 2).trim()] };
  return { text: item };
}
