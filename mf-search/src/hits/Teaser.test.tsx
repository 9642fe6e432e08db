// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArticleHit } from './articleHit.js';
import { compactListHit } from '../config/compactListHits.js';
import { Teaser } from './Teaser.js';

function hit(fields: Partial<ArticleHit>): ArticleHit {
  return { objectID: 'probe', title: 'Probe article', intro: 'An intro.', cta: 'Read the probe', topic: ['Learning'], ...fields } as ArticleHit;
}

/** The teaser as the server writes it, parsed; and as React renders it in the browser. */
function bothRenders(value: ArticleHit): HTMLElement[] {
  const server = document.createElement('div');
  server.innerHTML = renderToString(<Teaser hit={value} />);
  const { container } = render(<Teaser hit={value} />);
  return [server, container];
}

describe('Teaser links: only relative or http(s) urls and images', () => {
  afterEach(cleanup);

  it.each(['/articles/probe', 'https://example.org/articles/probe'])('links %s with its image and call-to-action', (url) => {
    for (const root of bothRenders(hit({ url, image: '/content-images/probe.svg' }))) {
      const link = root.querySelector('a');
      expect(link?.getAttribute('href')).toBe(url);
      expect(link?.querySelector('img')?.getAttribute('src')).toBe('/content-images/probe.svg');
      expect(link?.textContent).toContain('Read the probe');
    }
  });

  it.each(['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', '', undefined])(
    'renders the hit with url %j as text without any link',
    (url) => {
      for (const root of bothRenders(hit({ url, image: '/content-images/probe.svg' }))) {
        expect(root.querySelector('a')).toBeNull();
        expect(root.querySelector('[href]')).toBeNull();
        expect(root.querySelector('h2')?.textContent).toBe('Probe article');
        expect(root.textContent).not.toContain('Read the probe');
        expect(root.innerHTML).not.toMatch(/script:/i);
      }
    },
  );

  it.each(['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>'])('shows no image for %j', (image) => {
    for (const root of bothRenders(hit({ url: '/articles/probe', image }))) {
      expect(root.querySelector('img')).toBeNull();
      expect(root.querySelector('a')?.getAttribute('href')).toBe('/articles/probe');
    }
  });
});

describe('Teaser from a compact hit (what the list keeps, config/compactListHits.ts)', () => {
  const tagged = (text: string) => `__ais-highlight__${text}__/ais-highlight__`;
  const highlight = (value: string, matchLevel: 'none' | 'full') => ({ value, matchLevel, matchedWords: matchLevel === 'none' ? [] : ['team'] });
  const base = { objectID: 'probe', url: '/articles/probe', headline: 'The team', title: 'Team title', intro: 'An intro.', content: '' };
  const hits: Record<string, Record<string, unknown>> = {
    'headline and intro matched': {
      ...base,
      _highlightResult: { headline: highlight(`The ${tagged('team')}`, 'full'), title: highlight('Team title', 'none'), intro: highlight(`An ${tagged('intro')}.`, 'full') },
      _snippetResult: { content: highlight(`… ${tagged('team')} …`, 'full') },
    },
    'only the content matched': {
      ...base,
      _highlightResult: { headline: highlight('The team', 'none'), title: highlight('Team title', 'none'), intro: highlight('An intro.', 'none') },
      _snippetResult: { content: highlight(`… the ${tagged('coach')} said …`, 'full') },
    },
    'nothing matched': {
      ...base,
      headline: '',
      _highlightResult: { headline: highlight('', 'none'), title: highlight(`${tagged('Team')} title`, 'full'), intro: highlight('An intro.', 'none') },
      _snippetResult: { content: highlight('… text …', 'none') },
    },
  };

  it.each(Object.keys(hits))('renders the same markup as from the full hit: %s', (name) => {
    const full = hits[name]!;
    expect(renderToString(<Teaser hit={compactListHit(full) as ArticleHit} />)).toBe(renderToString(<Teaser hit={full as ArticleHit} />));
  });
});
