import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { articleText } from './article-files/test-support.js';
import { contentImagesDir, readContent } from './index.js';

const survey = { formHandle: 'poll', question: 'Yes or no?', answers: [{ position: 1, label: 'Yes' }, { position: 2, label: 'No' }] };

function files(articles: Record<string, string>, surveys: unknown = [survey]) {
  const dir = mkdtempSync(join(tmpdir(), 'khs-content-read-'));
  mkdirSync(join(dir, 'articles'));
  for (const [name, text] of Object.entries(articles)) writeFileSync(join(dir, 'articles', name), text);
  writeFileSync(join(dir, 'surveys.json'), typeof surveys === 'string' ? surveys : JSON.stringify(surveys));
  return { articlesDir: join(dir, 'articles'), surveys: join(dir, 'surveys.json'), imagesDir: contentImagesDir };
}

describe('readContent', () => {
  it('indexes valid files and sorts public articles newest first', () => {
    const snapshot = readContent(
      files({ 'old.md': articleText('Old', '', '2020-01-01'), 'new.md': articleText('New', 'surveyHandle: poll\n', '2022-01-01'), 'mid.md': articleText('Mid', '', '2021-01-01'), 'wip.md': articleText('Wip', 'draft: true\n') }),
    );
    expect(snapshot.articles.map((a) => a.id)).toEqual(['new', 'mid', 'old']);
    expect(snapshot.articlesById.get('mid')?.title).toBe('Title of Mid');
    expect(snapshot.surveysByHandle.get('poll')).toEqual(survey);
    expect(snapshot.topics).toEqual(['Coaching']);
    expect(snapshot.problems).toEqual([]);
  });

  it('leaves a bad article out and reports it; an unknown survey handle names its line', () => {
    const snapshot = readContent(files({ 'ok.md': articleText('Ok'), 'bad.md': articleText('Bad', 'surveyHandle: nope\n') }));
    expect(snapshot.articles.map((a) => a.id)).toEqual(['ok']);
    expect(snapshot.problems).toEqual([{ file: 'bad.md', line: 10, field: 'surveyHandle', message: 'no survey has the form handle "nope" (surveys are in data/surveys.json)' }]);
  });

  it('fails on an unreadable or duplicated survey file', () => {
    expect(() => readContent(files({}, '{ not json'))).toThrow(/surveys file .* could not be read/);
    expect(() => readContent(files({}, [survey, survey]))).toThrow(/duplicate formHandle "poll"/);
  });
});
