import type { SlicePageSlotContext } from 'contracts';
import { Slot } from './Slot.js';
import type { SlicePage as SlicePageDefinition } from '../slicePages/slicePages.js';

export interface SlicePageProps {
  /** The page, as its slice's manifest declares it. */
  page: SlicePageDefinition;
  /** What the page offers its slot (its path, the address's query). */
  context: SlicePageSlotContext;
}

/**
 * A page a slice declares: its heading, then its main slot, filled by the islands the slices'
 * manifests place there. Where they cannot render on the server, the page's declared fallback
 * stands until the browser mounts them: a sentence (perhaps for browsers without scripts only),
 * or a plain GET form to the page itself.
 */
export function SlicePage({ page, context }: SlicePageProps) {
  const headingId = 'slice-page-title';
  return (
    <section className="slice-page" aria-labelledby={headingId}>
      <h1 id={headingId}>{page.heading}</h1>
      <Slot name={page.slot} context={context}>
        <SlicePageFallback page={page} query={context.query} />
      </Slot>
    </section>
  );
}

function SlicePageFallback({ page, query }: { page: SlicePageDefinition; query: string }) {
  const { fallback, queryParam } = page;
  if (!fallback) return null;
  const text = fallback.text ? <p>{fallback.text}</p> : null;
  return (
    <>
      {fallback.onlyWithoutScripts ? <noscript>{text}</noscript> : text}
      {fallback.queryForm && queryParam ? (
        <form role="search" aria-label={fallback.queryForm.formLabel} action={page.path} method="get" className="slice-page__query-form">
          <label htmlFor="slice-page-query">{fallback.queryForm.label}</label>
          <input id="slice-page-query" type="search" name={queryParam} defaultValue={query} maxLength={page.queryMaxLength} />
          <button type="submit">{fallback.queryForm.label}</button>
        </form>
      ) : null}
    </>
  );
}
