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

/** Bounds on one `filter_by` expression (every clause costs a scan of the collection). */
export interface FilterLimits {
  /** Most clauses (`field:value` terms) in one expression. Default 100. */
  maxClauses: number;
  /** Deepest parenthesis nesting. Default 16. */
  maxDepth: number;
}

export const DEFAULT_FILTER_LIMITS: FilterLimits = { maxClauses: 100, maxDepth: 16 };

const PARSE_ERROR = 'Could not parse the filter query.';
/** Typesense's answer to `id:` without a value (src/filter.cpp `toFilter`). */
const ID_EMPTY_ERROR = 'Error with filter field `id`: Filter value cannot be empty.';

function fail(): never {
  throw new ApiError(400, PARSE_ERROR);
}

type Operator = '&&' | '||' | '(';
const PRECEDENCE: Record<'&&' | '||', number> = { '&&': 2, '||': 1 };

/**
 * Parses Typesense `filter_by` syntax: `field:value`, `field:=[a,b]`,
 * `field:!=v`, `field:!v`, comparators, `[a..b]` ranges, backtick literals,
 * `&&` (binds tighter), `||` and parentheses. Throws ApiError(400) on a syntax
 * error or when the expression exceeds `limits`.
 *
 * Iterative (operator-precedence with explicit stacks), so no input can
 * exhaust the call stack; the tree depth is bounded by the clause limit.
 */
export function parseFilter(input: string, limits: FilterLimits = DEFAULT_FILTER_LIMITS): FilterNode {
  const operands: FilterNode[] = [];
  const operators: Operator[] = [];
  let pos = 0;
  let depth = 0;
  let clauses = 0;
  // true while the next token must be an operand (a clause or '('), false when it must be an operator or ')'.
  let expectOperand = true;

  const reduce = (): void => {
    const operator = operators.pop();
    const right = operands.pop();
    const left = operands.pop();
    if ((operator !== '&&' && operator !== '||') || !left || !right) fail();
    operands.push({ kind: operator === '&&' ? 'and' : 'or', left, right });
  };

  for (;;) {
    while (pos < input.length && /\s/.test(input[pos] as string)) pos++;
    if (pos >= input.length) break;
    if (expectOperand) {
      if (input[pos] === '(') {
        pos++;
        if (++depth > limits.maxDepth) {
          throw new ApiError(400, `Filter expression is nested deeper than ${limits.maxDepth} levels.`);
        }
        operators.push('(');
        continue;
      }
      if (++clauses > limits.maxClauses) {
        throw new ApiError(400, `Filter expression has more than ${limits.maxClauses} clauses.`);
      }
      const { node, end } = parseClause(input, pos);
      operands.push(node);
      pos = end;
      expectOperand = false;
      continue;
    }
    if (input[pos] === ')') {
      if (depth === 0) fail();
      while (operators.length > 0 && operators[operators.length - 1] !== '(') reduce();
      operators.pop();
      depth--;
      pos++;
      continue;
    }
    const token = input.startsWith('&&', pos) ? '&&' : input.startsWith('||', pos) ? '||' : fail();
    pos += 2;
    while (operators.length > 0) {
      const top = operators[operators.length - 1] as Operator;
      if (top === '(' || PRECEDENCE[top] < PRECEDENCE[token]) break;
      reduce();
    }
    operators.push(token);
    expectOperand = true;
  }
  if (expectOperand || depth !== 0) fail();
  while (operators.length > 0) reduce();
  if (operands.length !== 1) fail();
  return operands[0] as FilterNode;
}

const OPERATOR_TOKENS = [
  ['!=', 'notExact'],
  ['>=', 'gte'],
  ['<=', 'lte'],
  ['!', 'notMatch'],
  ['>', 'gt'],
  ['<', 'lt'],
  ['=', 'exact'],
] as const;

/** Parses one `field:[op]value` clause starting at `start`; returns it and the position after it. */
function parseClause(input: string, start: number): { node: FilterNode; end: number } {
  let pos = start;
  const skipSpace = (): void => {
    while (pos < input.length && /\s/.test(input[pos] as string)) pos++;
  };
  let field = '';
  if (input[pos] === '`') {
    const end = input.indexOf('`', pos + 1);
    if (end < 0) fail();
    field = input.slice(pos + 1, end);
    pos = end + 1;
  } else {
    const fieldStart = pos;
    while (pos < input.length && input[pos] !== ':' && !/[\s()&|]/.test(input[pos] as string)) pos++;
    field = input.slice(fieldStart, pos);
  }
  skipSpace();
  if (!field || input[pos] !== ':') fail();
  pos++;
  skipSpace();
  let operator: FilterOperator = 'match';
  for (const [token, op] of OPERATOR_TOKENS) {
    if (input.startsWith(token, pos)) {
      operator = op;
      pos += token.length;
      break;
    }
  }
  skipSpace();
  let values: FilterValue[];
  if (input[pos] === '[') {
    const end = findListEnd(input, pos);
    values = splitListItems(input.slice(pos + 1, end)).map(parseListItem);
    pos = end + 1;
    // `id:[]` names no document (Typesense: an empty id list matches nothing).
    if (values.length === 0 && field !== 'id') fail();
  } else {
    const valueStart = pos;
    pos = findValueEnd(input, pos);
    const text = input.slice(valueStart, pos).trim();
    if (!text && field === 'id') throw new ApiError(400, ID_EMPTY_ERROR);
    if (!text) fail();
    values = [{ text: unquote(text) }];
  }
  return { node: { kind: 'clause', field, operator, values }, end: pos };
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
