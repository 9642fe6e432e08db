import { describe, expect, it } from 'vitest';
import { parseExpires, previewLink, signPreview, verifyPreview } from './previewLink.mjs';

const SECRET = 'preview-secret-0123456789';
const NOW = 1_800_000_000_000;

function fromLink(link) {
  const query = new URL(link).searchParams;
  return { remote: query.get('remote'), version: query.get('version'), expires: parseExpires(query.get('expires')), sig: query.get('sig') };
}

describe('preview links', () => {
  it('links the site\'s /__preview with the remote, version, expiry and a signature that verifies until it expires', () => {
    const link = previewLink({ site: 'https://site.test/base/', remote: 'mf-search', version: '0.1.0+abcdef012345', secret: SECRET, now: NOW });
    expect(link).toMatch(/^https:\/\/site\.test\/__preview\?remote=mf-search&version=0\.1\.0%2Babcdef012345&expires=1800086400000&sig=[\w-]{43}$/);
    const preview = fromLink(link);
    expect(verifyPreview(preview, SECRET, NOW)).toBe(true);
    expect(verifyPreview(preview, SECRET, NOW + 24 * 60 * 60 * 1000)).toBe(false);
  });

  it('refuses a changed remote, version or expiry, another secret, a missing or odd signature', () => {
    const preview = fromLink(previewLink({ site: 'http://127.0.0.1:4300', remote: 'mf-search', version: '0.1.0+aaaa', secret: SECRET, now: NOW }));
    expect(verifyPreview({ ...preview, remote: 'mf-survey' }, SECRET, NOW)).toBe(false);
    expect(verifyPreview({ ...preview, version: '0.1.0+bbbb' }, SECRET, NOW)).toBe(false);
    expect(verifyPreview({ ...preview, expires: preview.expires + 1 }, SECRET, NOW)).toBe(false);
    expect(verifyPreview(preview, `${SECRET}x`, NOW)).toBe(false);
    expect(verifyPreview({ ...preview, sig: undefined }, SECRET, NOW)).toBe(false);
    expect(verifyPreview({ ...preview, sig: `${preview.sig}=` }, SECRET, NOW)).toBe(false);
    expect(verifyPreview(preview, '', NOW)).toBe(false);
  });

  it('signs nothing that is no remote name and build version, and needs a long enough secret', () => {
    const sign = (remote, version, secret = SECRET) => () => previewLink({ site: 'http://x.test', remote, version, secret, now: NOW });
    expect(sign('mf-search', '../../etc')).toThrow(/build version/);
    expect(sign('MF search', '0.1.0')).toThrow(/remote name/);
    expect(sign('mf-search', '0.1.0', 'short')).toThrow(/at least 16/);
    const forged = { remote: 'mf-search', version: '../x', expires: NOW + 1000 };
    expect(verifyPreview({ ...forged, sig: signPreview(forged, SECRET) }, SECRET, NOW)).toBe(false);
    expect(parseExpires('12ab')).toBeNaN();
    expect(parseExpires('1e9')).toBeNaN();
  });
});
