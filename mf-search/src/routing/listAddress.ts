/**
 * The part of a page's address the search list renders from: the parameters its routing reads
 * (`q`, `page`, one per facet attribute), in a fixed order. The path, a fragment (a skip link)
 * or any other parameter does not change the list. Framework-free: the bound list's chunk
 * compares the address the server rendered with the window's (`islands/SearchList.ts`).
 */
export function listAddress(href: string, facetAttributes: readonly string[]): string {
  const { searchParams } = new URL(href, 'http://list.invalid/');
  const params = new URLSearchParams();
  for (const key of ['q', 'page', ...facetAttributes]) {
    for (const value of searchParams.getAll(key)) params.append(key, value);
  }
  return params.toString();
}
