/**
 * Deepest nesting of arrays and objects a request body or an imported line may have. Bodies are
 * walked recursively further on (schema, document and set validation, nested-field flattening), so
 * a hostile 20,000-level body would overflow the stack there and answer 500; nothing real comes
 * close (Typesense's own nested-field examples stay under 10 levels).
 */
export const MAX_JSON_NESTING = 64;

/** The message of the 400 for a body nested deeper than `MAX_JSON_NESTING`. */
export const TOO_DEEPLY_NESTED = `Bad JSON: nested deeper than ${MAX_JSON_NESTING} levels.`;

/** Whether `value` (parsed JSON) nests arrays/objects deeper than `max`; walked without recursion. */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_NESTING): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
