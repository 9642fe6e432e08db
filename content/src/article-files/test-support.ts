/** A valid article file (for tests): `extra` adds front-matter lines before the closing `---`. */
export function articleText(headline: string, extra = '', date = '2025-03-14'): string {
  return `---\nheadline: ${headline}\ntitle: Title of ${headline}\nintro: Intro.\ntopic: [Coaching]\ndate: ${date}\nimage: /content-images/default.svg\nimageAlt: Grey\ncta: Read more\n${extra}---\n\nBody of ${headline}.\n`;
}
