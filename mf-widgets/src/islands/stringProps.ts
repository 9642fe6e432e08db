/**
 * The string props of a server island: every `required` one non-empty, every `optional` one a
 * string when present. Throws a TypeError naming the island and the prop otherwise, so the shell
 * logs the failure and keeps its placeholder.
 */
export function readStringProps<Required extends string, Optional extends string = never>(
  island: string,
  props: unknown,
  required: readonly Required[],
  optional: readonly Optional[] = [],
): Record<Required, string> & Partial<Record<Optional, string>> {
  if (typeof props !== 'object' || props === null) throw new TypeError(`${island} needs props`);
  const values = props as Record<string, unknown>;
  const result: Record<string, string> = {};
  for (const key of required) {
    const value = values[key];
    if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${island} needs a string prop "${key}"`);
    result[key] = value;
  }
  for (const key of optional) {
    const value = values[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new TypeError(`${island}: prop "${key}" must be a string`);
    result[key] = value;
  }
  return result as Record<Required, string> & Partial<Record<Optional, string>>;
}
