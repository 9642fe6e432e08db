import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';

/** Renders a full HTML document. */
export function renderPage(page: ReactElement): string {
  return `<!doctype html>${renderToString(page)}`;
}
