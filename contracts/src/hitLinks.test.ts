import { describe, expect, it } from 'vitest';
import { isSafeHitUrl } from './hitLinks.js';

describe('isSafeHitUrl', () => {
  it.each(['/articles/kpi', 'articles/kpi', '../x.svg', '?q=1', '#top', '', '//cdn.example.org/x.svg', 'http://example.org/a', 'HTTPS://example.org/a', '/content-images/a b.svg'])(
    'accepts %j (relative or http/https)',
    (value) => {
      expect(isSafeHitUrl(value)).toBe(true);
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    '\u0001javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://example.org/1',
    'mailto:a@example.org',
    'http://[::1',
  ])('refuses %j', (value) => {
    expect(isSafeHitUrl(value)).toBe(false);
  });

  it.each([undefined, null, 42, {}, ['/a']])('refuses the non-string %j', (value) => {
    expect(isSafeHitUrl(value)).toBe(false);
  });
});
