import PDFDocument from 'pdfkit';
import type { Article } from '@khs/content';
import { winAnsiText } from './winAnsiText.js';

export interface WatchlistPdfInput {
  /** Site name, printed as the document's heading and author. */
  siteName: string;
  /** The saved articles, in watchlist order. */
  articles: readonly Article[];
  /** Origin the article links point to, e.g. `https://khs.example` (no trailing slash); empty: relative links. */
  baseUrl: string;
  /** Date printed under the heading. Default now. */
  date?: Date;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const INK = '#1a1a1a';
const MUTED = '#5a6470';
const LINK = '#0b5cad';

/**
 * The watchlist as an A4 PDF: site name, date, and per article its title, topics, intro and
 * link. Uses pdfkit's built-in Helvetica (no font files to ship, nothing embedded), so text is
 * reduced to the WinAnsi characters that font has.
 */
export function renderWatchlistPdf({ siteName, articles, baseUrl, date = new Date() }: WatchlistPdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${siteName} watchlist`, Author: siteName, CreationDate: date },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK).text(winAnsiText(siteName));
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(`Watchlist of ${dateFormat.format(date)} · ${articles.length} ${articles.length === 1 ? 'article' : 'articles'}`);
  doc.moveDown(1.5);

  for (const article of articles) {
    // A request that did not come through the edge has no link origin: its links stay relative
    // (as the sharing URL does) rather than failing the whole download.
    const link = baseUrl ? new URL(article.url, baseUrl).href : article.url;
    doc.font('Helvetica-Bold').fontSize(13).fillColor(INK).text(winAnsiText(article.title));
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(winAnsiText(article.topic.join(' · ')));
    doc.moveDown(0.3);
    doc.fontSize(10).fillColor(INK).text(winAnsiText(article.intro));
    doc.moveDown(0.3);
    doc.fontSize(9).fillColor(LINK).text(link, { link, underline: true });
    doc.moveDown(1.2);
  }
  doc.end();
  return done;
}
