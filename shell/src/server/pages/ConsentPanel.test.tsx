import { renderToStaticMarkup } from 'react-dom/server';
import type { SliceManifest } from '@khs/stack/registry';
import { describe, expect, it } from 'vitest';
import { ConsentPanel, consentPurposesOf } from './ConsentPanel.js';

const slice = (name: string, consent?: SliceManifest['consent']): SliceManifest => ({ name, team: 'Team', description: 'A slice for this test.', env: [], ...(consent ? { consent } : {}) });

describe('the privacy settings offer the consent purposes the slices need', () => {
  it('one checkbox per purpose, in the slices order, the labels of a purpose two slices need joined', () => {
    expect(
      consentPurposesOf([
        slice('a', [{ purpose: 'tracking', label: 'Statistics of a' }]),
        slice('b'),
        slice('c', [
          { purpose: 'insights', label: 'Insights of c' },
          { purpose: 'tracking', label: 'Statistics of c' },
        ]),
      ]),
    ).toEqual([
      { purpose: 'tracking', label: 'Statistics of a; Statistics of c' },
      { purpose: 'insights', label: 'Insights of c' },
    ]);
  });

  it('a purpose nobody needs has no checkbox', () => {
    const html = renderToStaticMarkup(<ConsentPanel purposes={consentPurposesOf([slice('a', [{ purpose: 'insights', label: 'Insights' }])])} />);
    expect(html).toContain('<input type="checkbox" name="insights"/> Insights');
    expect(html).not.toContain('name="tracking"');
  });

  it("the site's panel: the purposes its manifests declare", () => {
    const html = renderToStaticMarkup(<ConsentPanel />);
    expect(html.match(/<input type="checkbox" name="(\w+)"/g)).toEqual(['<input type="checkbox" name="insights"', '<input type="checkbox" name="tracking"']);
  });
});
