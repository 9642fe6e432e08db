/** Open modals per document: the page scrolls again only when the last one closes. */
const locks = new WeakMap<Document, { count: number; restore: () => void }>();

/**
 * Locks the page's scrolling while a modal is open. The scrollbar's width is given back as
 * padding so the page does not jump sideways. Returns the unlock function (idempotent).
 */
export function lockPageScroll(doc: Document): () => void {
  const existing = locks.get(doc);
  if (existing) existing.count += 1;
  else {
    const html = doc.documentElement;
    const body = doc.body;
    const scrollbar = (doc.defaultView?.innerWidth ?? 0) - html.clientWidth;
    const previous = { overflow: html.style.overflow, paddingRight: body.style.paddingRight };
    html.style.overflow = 'hidden';
    if (scrollbar > 0) body.style.paddingRight = `${scrollbar}px`;
    locks.set(doc, {
      count: 1,
      restore: () => {
        html.style.overflow = previous.overflow;
        body.style.paddingRight = previous.paddingRight;
      },
    });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const lock = locks.get(doc);
    if (!lock) return;
    lock.count -= 1;
    if (lock.count === 0) {
      lock.restore();
      locks.delete(doc);
    }
  };
}

/** True while some modal keeps the page from scrolling. */
export function isPageScrollLocked(doc: Document): boolean {
  return locks.has(doc);
}
