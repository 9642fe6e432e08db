import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api-error.js';
import { type FilterNode, parseFilter } from '../src/filter/filter-parser.js';

function shape(node: FilterNode): string {
  if (node.kind === 'clause') return `${node.field}${node.operator === 'match' ? ':' : `:${node.operator}:`}${node.values.map((v) => v.text).join('|')}`;
  return `(${shape(node.left)} ${node.kind === 'and' ? '&&' : '||'} ${shape(node.right)})`;
}

function errorOf(input: string): ApiError {
  try {
    parseFilter(input);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error(`expected ${input.slice(0, 40)} to fail`);
}

describe('filter_by parser', () => {
  it('binds && tighter than ||, left to right, and honours parentheses', () => {
    expect(shape(parseFilter('a:1 || b:2 && c:3'))).toBe('(a:1 || (b:2 && c:3))');
    expect(shape(parseFilter('a:1 && b:2 || c:3'))).toBe('((a:1 && b:2) || c:3)');
    expect(shape(parseFilter('a:1 && b:2 && c:3'))).toBe('((a:1 && b:2) && c:3)');
    expect(shape(parseFilter('(a:1 || b:2) && c:3'))).toBe('((a:1 || b:2) && c:3)');
    expect(shape(parseFilter(' ( ( a:1 ) ) '))).toBe('a:1');
    expect(shape(parseFilter('topic:=[`a,b`, c] && date:>=10'))).toBe('(topic:exact:a,b|c && date:gte:10)');
    expect(shape(parseFilter('title:!=`x && y`'))).toBe('title:notExact:x && y');
  });

  it('refuses syntax errors with 400', () => {
    for (const bad of ['', '&&', 'a:1 &&', '(a:1', 'a:1)', '()', 'a', ':1', 'a:1 || || b:2', 'a:[', 'a:`x']) {
      const error = errorOf(bad);
      expect(error, bad).toBeInstanceOf(ApiError);
      expect(error.status).toBe(400);
      expect(error.message).toBe('Could not parse the filter query.');
    }
  });

  it('limits the clause count and nesting depth with a clear 400, never a stack overflow', () => {
    expect(parseFilter(Array.from({ length: 100 }, () => 'topic:a').join(' && ')).kind).toBe('and');
    const many = errorOf(Array.from({ length: 12_000 }, () => 'topic:a').join(' && '));
    expect([many.status, many.message]).toEqual([400, 'Filter expression has more than 100 clauses.']);
    expect(parseFilter(`${'('.repeat(16)}topic:a${')'.repeat(16)}`).kind).toBe('clause');
    const deep = errorOf(`${'('.repeat(1_000_000)}topic:a${')'.repeat(1_000_000)}`);
    expect([deep.status, deep.message]).toEqual([400, 'Filter expression is nested deeper than 16 levels.']);
  });

  it('parses a million-clause expression without recursion when the limits allow it', () => {
    const input = Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? `a:${i}` : `(b:${i})`)).join(' || ');
    const tree = parseFilter(input, { maxClauses: 2_000_000, maxDepth: 4 });
    // Walk iteratively: the left-deep tree is a million levels deep.
    let count = 0;
    const stack: FilterNode[] = [tree];
    while (stack.length > 0) {
      const node = stack.pop() as FilterNode;
      if (node.kind === 'clause') count++;
      else stack.push(node.left, node.right);
    }
    expect(count).toBe(1_000_000);
  });
});
