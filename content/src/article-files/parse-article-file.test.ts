import { describe, expect, it } from 'vitest';
import { formatArticleProblem, parseArticleDate, parseArticleFile } from './parse-article-file.js';

const existingImages = new Set(['/content-images/default.svg', '/content-article-images/team/cover.png', '/content-article-images/team/img/my%20chart.png', '/content-article-images/shared.png']);
const context = { surveyExists: (handle: string) => handle === 'poll', imageExists: (url: string) => existingImages.has(url) };

/** A valid file, with lines replaced or added through `change`. Line numbers are those of the file. */
function file(change: (lines: string[]) => void = () => {}, body = 'First paragraph.\n\nSecond *paragraph*.'): string {
  const lines = [
    '---', // 1
    'headline: A headline', // 2
    'title: A title', // 3
    'intro: An intro.', // 4
    'topic:', // 5
    '  - Coaching', // 6
    '  - Feedback', // 7
    'date: 2025-03-14', // 8
    'image: /content-images/default.svg', // 9
    'imageAlt: A grey square', // 10
    'cta: Read more', // 11
    '---', // 12
    '', // 13
  ];
  change(lines);
  return `${lines.join('\n')}\n${body}\n`;
}

function problemsOf(text: string) {
  const parsed = parseArticleFile('team/x.md', 'x', text, 0, context);
  expect(parsed.article).toBeUndefined();
  return parsed.problems.map(formatArticleProblem);
}

describe('parseArticleFile', () => {
  it('reads a valid file: fields, derived url and reading time, safe HTML and plain text of the body', () => {
    const parsed = parseArticleFile('x.md', 'x', file(undefined, '# Part\n\nSee [the guide](https://example.org) and <script>alert(1)</script>.\n\n> quoted\n\n- one\n- two'), 5, context);
    expect(parsed.problems).toEqual([]);
    const article = parsed.article!;
    expect(article).toMatchObject({ id: 'x', url: '/articles/x', headline: 'A headline', topic: ['Coaching', 'Feedback'], date: Date.UTC(2025, 2, 14) / 1000, readingTime: 1, draft: false, lastModified: 5 });
    expect(article.bodyHtml).toContain('<h2>Part</h2>');
    expect(article.bodyHtml).toContain('<a href="https://example.org">the guide</a>');
    expect(article.bodyHtml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(article.bodyHtml).not.toContain('<script>');
    expect(article.bodyHtml).toContain('<blockquote>');
    expect(article.bodyHtml).toContain('<li>one</li>');
    expect(article.content).toBe('Part\n\nSee the guide and <script>alert(1)</script>.\n\nquoted\n\none\n\ntwo');
  });

  it('drops javascript: links', () => {
    const article = parseArticleFile('x.md', 'x', file(undefined, '[click](javascript:alert(1))'), 0, context).article!;
    expect(article.bodyHtml).not.toContain('href="javascript');
  });

  it('names the file, the line and the expected topics for an unknown topic', () => {
    expect(problemsOf(file((l) => (l[6] = '  - Cooking')))).toEqual([expect.stringMatching(/^team\/x\.md:7: topic\[1\]: unknown topic "Cooking"; expected one of Leadership, .*Learning$/)]);
  });

  it('names the line of a missing alt text (cover image, gallery, body image)', () => {
    expect(problemsOf(file((l) => l.splice(9, 1)))).toEqual(['team/x.md:1: imageAlt: missing: expected alt text describing the image (missing alt text)']);
    const gallery = file((l) => l.splice(11, 0, 'gallery:', '  - src: /content-images/default.svg', '    caption: A caption'));
    expect(problemsOf(gallery)).toEqual(['team/x.md:13: gallery[0].alt: missing alt text: expected a text describing the image']);
    expect(problemsOf(file(undefined, 'Text.\n\n![](/content-images/default.svg)'))).toEqual([
      'team/x.md:16: missing alt text for the image /content-images/default.svg: write ![what the image shows](/content-images/default.svg)',
    ]);
  });

  it('names the line of a date that is not a date, with the expected format', () => {
    for (const bad of ['next week', '2025-02-30', '2025-13-01', '14.03.2025']) {
      expect(problemsOf(file((l) => (l[7] = `date: ${bad}`)))).toEqual([expect.stringMatching(/^team\/x\.md:8: date: ".*" is not a date: expected YYYY-MM-DD or an ISO 8601 time/)]);
    }
  });

  it('names the line of a survey handle that does not exist', () => {
    expect(problemsOf(file((l) => l.splice(11, 0, 'surveyHandle: nope')))).toEqual(['team/x.md:12: surveyHandle: no survey has the form handle "nope" (surveys are in data/surveys.json)']);
  });

  it('names the line of an image that is not there (cover, gallery, body)', () => {
    expect(problemsOf(file((l) => (l[8] = 'image: /content-images/missing.svg')))).toEqual(['team/x.md:9: image: the image /content-images/missing.svg is not there (images live in content/images/)']);
    expect(problemsOf(file((l) => l.splice(11, 0, 'gallery:', '  - src: /content-images/gone.svg', '    alt: Gone', '    caption: C')))).toEqual([
      'team/x.md:13: gallery[0].src: the image /content-images/gone.svg is not there (images live in content/images/)',
    ]);
    expect(problemsOf(file(undefined, 'Text.\n\n![A thing](/content-images/gone.svg)'))).toEqual(['team/x.md:16: the image /content-images/gone.svg is not there (images live in content/images/)']);
  });

  it('reads images next to the article file: cover, gallery and body, as site URLs', () => {
    const text = file((l) => {
      l[8] = 'image: ./cover.png';
      l.splice(11, 0, 'gallery:', '  - src: ../shared.png', '    alt: Shared', '    caption: C');
    }, 'Text.\n\n![A chart](img/my%20chart.png) and ![A cover](./cover.png)');
    const parsed = parseArticleFile('team/x.md', 'x', text, 0, context);
    expect(parsed.problems).toEqual([]);
    expect(parsed.article).toMatchObject({ image: '/content-article-images/team/cover.png', gallery: [{ src: '/content-article-images/shared.png', alt: 'Shared', caption: 'C' }] });
    expect(parsed.article!.bodyHtml).toContain('<img src="/content-article-images/team/img/my%20chart.png" alt="A chart">');
    expect(parsed.article!.bodyHtml).toContain('<img src="/content-article-images/team/cover.png" alt="A cover">');
  });

  it('names file and line of a relative image that is not next to the file (cover, gallery, body)', () => {
    expect(problemsOf(file((l) => (l[8] = 'image: ./missing.png')))).toEqual(['team/x.md:9: image: the image ./missing.png is not there (it is looked for next to this file, at team/missing.png)']);
    expect(problemsOf(file((l) => l.splice(11, 0, 'gallery:', '  - src: ./board.jpg', '    alt: Board', '    caption: C')))).toEqual([
      'team/x.md:13: gallery[0].src: the image ./board.jpg is not there (it is looked for next to this file, at team/board.jpg)',
    ]);
    expect(problemsOf(file(undefined, 'Text.\n\n![A chart](./chart.png)'))).toEqual(['team/x.md:16: the image ./chart.png is not there (it is looked for next to this file, at team/chart.png)']);
  });

  it('refuses an image outside the content folder, and a file that is no image', () => {
    expect(problemsOf(file((l) => (l[8] = 'image: ../../etc/passwd.png')))).toEqual([
      "team/x.md:9: image: the image ../../etc/passwd.png is outside the content folder: keep an article's images next to it (./cover.png) or in a folder below it",
    ]);
    expect(problemsOf(file(undefined, 'Text.\n\n![A secret](../../../etc/shadow.png)'))).toEqual([
      "team/x.md:16: the image ../../../etc/shadow.png is outside the content folder: keep an article's images next to it (./cover.png) or in a folder below it",
    ]);
    expect(problemsOf(file((l) => (l[8] = 'image: ./other.md')))).toEqual([expect.stringMatching(/^team\/x\.md:9: image: the image \.\/other\.md is not an image file: expected one of \.png/)]);
  });

  it('names unknown fields, wrong types, YAML mistakes and a missing front matter', () => {
    expect(problemsOf(file((l) => l.splice(11, 0, 'headlnie: typo')))).toEqual([expect.stringMatching(/^team\/x\.md:12: headlnie: unknown field; expected one of headline, title/)]);
    expect(problemsOf(file((l) => l.splice(11, 0, 'draft: maybe')))).toEqual(['team/x.md:12: draft: expected true or false, got "maybe"']);
    expect(problemsOf(file((l) => (l[3] = 'intro: [unclosed')))).toEqual([expect.stringMatching(/^team\/x\.md:\d+:\d+: the front matter is not valid YAML/)]);
    expect(problemsOf('Just text.\n')).toEqual([expect.stringMatching(/^team\/x\.md:1: expected front matter first/)]);
    expect(problemsOf(file(undefined, ''))).toEqual([expect.stringMatching(/^team\/x\.md:13: the article has no body/)]);
  });
});

describe('YAML mistakes', () => {
  it('are named at their real line and column, wherever they are in the front matter', () => {
    expect(problemsOf(file((l) => (l[3] = 'intro: a: b')))).toEqual(['team/x.md:4:8: the front matter is not valid YAML: Nested mappings are not allowed in compact mappings']);
    expect(problemsOf(file((l) => (l[9] = 'imageAlt: grey: square')))).toEqual(['team/x.md:10:11: the front matter is not valid YAML: Nested mappings are not allowed in compact mappings']);
    expect(problemsOf(file((l) => l.splice(9, 0, 'title: again')))).toEqual([expect.stringMatching(/^team\/x\.md:10:1: the front matter is not valid YAML: Map keys must be unique/)]);
  });
});

describe('the updated date', () => {
  it('is read like the date and kept on the article; without it the article has none', () => {
    const parsed = parseArticleFile('x.md', 'x', file((l) => l.splice(8, 0, 'updated: 2025-06-01T10:00:00+02:00')), 0, context);
    expect(parsed.problems).toEqual([]);
    expect(parsed.article!.updated).toBe(Date.UTC(2025, 5, 1, 8) / 1000);
    expect(parseArticleFile('x.md', 'x', file(), 0, context).article!.updated).toBeUndefined();
  });

  it('names its line when it is not a date or lies before the date', () => {
    expect(problemsOf(file((l) => l.splice(8, 0, 'updated: last week')))).toEqual([
      'team/x.md:9: updated: "last week" is not a date: expected YYYY-MM-DD or an ISO 8601 time with its zone, e.g. 2025-03-14 or 2025-03-14T09:30:00Z',
    ]);
    expect(problemsOf(file((l) => l.splice(8, 0, 'updated: 2025-03-13')))).toEqual([
      'team/x.md:9: updated: "2025-03-13" is before the date (2025-03-14): an article cannot change before it is published',
    ]);
  });
});

describe('parseArticleDate', () => {
  it('reads dates and zoned times, refuses what is no calendar date', () => {
    expect(parseArticleDate('2025-03-14')).toBe(Date.UTC(2025, 2, 14) / 1000);
    expect(parseArticleDate('2025-03-14T09:30:00Z')).toBe(Date.UTC(2025, 2, 14, 9, 30) / 1000);
    expect(parseArticleDate('2025-03-14T09:30:00+01:00')).toBe(Date.UTC(2025, 2, 14, 8, 30) / 1000);
    expect(parseArticleDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29) / 1000);
    expect(parseArticleDate('2025-02-29')).toBeUndefined();
    expect(parseArticleDate('2025-03-14T09:30:00')).toBeUndefined();
  });
});
