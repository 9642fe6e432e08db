/**
 * One-off conversion (run once, when articles moved from `data/articles.json` to Markdown files):
 * writes each article of a JSON array as `<outDir>/<id>.md` (front matter + Markdown body) and checks
 * that reading the file back gives the same article (text, reading time, date, every field).
 *
 *   npx tsx scripts/convert-articles-to-markdown.ts <articles.json> <outDir>
 *
 * The files are the source from then on; `data/articles.json` is gone (get it from git history).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Article } from '../src/article.js';
import { articleFileText } from '../src/article-files/article-file-text.js';
import { parseArticleFile } from '../src/article-files/parse-article-file.js';

const [input, outDir] = process.argv.slice(2);
if (!input || !outDir) {
  console.error('usage: convert-articles-to-markdown.ts <articles.json> <outDir>');
  process.exit(2);
}
const articles = JSON.parse(readFileSync(input, 'utf8')) as Article[];
mkdirSync(outDir, { recursive: true });
for (const article of articles) {
  const text = articleFileText(article);
  const back = parseArticleFile(`${article.id}.md`, article.id, text, 0, { surveyExists: () => true, imageExists: () => true });
  if (!back.article) throw new Error(`${article.id}: ${JSON.stringify(back.problems)}`);
  const { bodyHtml: _html, draft: _draft, lastModified: _modified, ...read } = back.article;
  if (JSON.stringify(read, Object.keys(article).sort()) !== JSON.stringify(article, Object.keys(article).sort())) {
    throw new Error(`${article.id}: reading the Markdown back does not give the same article`);
  }
  writeFileSync(path.join(outDir, `${article.id}.md`), text);
}
console.log(`wrote ${articles.length} articles to ${outDir}`);
