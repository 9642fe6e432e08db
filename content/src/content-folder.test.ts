import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArticleFolderReader, contentImagesDir, defaultArticlesDir, formatArticleProblem, listSurveys } from './index.js';

// Every article file of the checkout (drafts and scheduled ones too): a mistake fails `npm test` with
// the file and line to fix.
describe('the content folder', () => {
  it('holds only valid article files (file:line: what is expected)', () => {
    const reader = new ArticleFolderReader(defaultArticlesDir, { surveyHandles: new Set(listSurveys().map((s) => s.formHandle)), imagesDir: contentImagesDir });
    const snapshot = reader.read();
    expect(snapshot.problems.map(formatArticleProblem)).toEqual([]);
    const files = readdirSync(defaultArticlesDir, { recursive: true }).filter((name) => String(name).endsWith('.md'));
    expect(snapshot.articles.length).toBe(files.length);
    expect(files.length).toBeGreaterThanOrEqual(62);
  });
});
