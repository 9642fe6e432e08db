/**
 * JSON that is safe inside a `<script type="application/json">` element: characters that could
 * close the element or start markup are written as unicode escapes (still valid JSON).
 */
export function serializeJsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
