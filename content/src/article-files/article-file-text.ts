import { stringify } from 'yaml';
import type { Article } from '../article.js';
import { escapeMarkdownText } from './markdown.js';
import { formatArticleDate } from './parse-article-file.js';

/**
 * The Markdown file of an article whose body is plain paragraphs (the seeded corpus once, generated
 * benchmark corpora): front matter with the article's fields, then the paragraphs, escaped so they
 * read back as the same text.
 */
export function articleFileText(article: Article): string {
  const frontMatter: Record<string, unknown> = { headline: article.headline, title: article.title };
  if (article.subline !== undefined) frontMatter.subline = article.subline;
  Object.assign(frontMatter, { intro: article.intro, topic: article.topic, date: formatArticleDate(article.date) });
  if (article.updated !== undefined) frontMatter.updated = formatArticleDate(article.updated);
  Object.assign(frontMatter, { image: article.image, imageAlt: article.imageAlt, cta: article.cta });
  if (article.surveyHandle !== undefined) frontMatter.surveyHandle = article.surveyHandle;
  if (article.gallery !== undefined) frontMatter.gallery = article.gallery;
  if (article.draft) frontMatter.draft = true;
  const body = article.content.split(/\n{2,}/).map(escapeMarkdownText).join('\n\n');
  return `---\n${stringify(frontMatter, { lineWidth: 0 })}---\n\n${body}\n`;
}
