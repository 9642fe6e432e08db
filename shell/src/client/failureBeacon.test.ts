// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFailureBeacon, sendJsonBeacon } from './failureBeacon.js';
import { ISLAND_FAILURE_REPORT_PATH, type IslandFailureReport } from '../shared/islandFailureReport.js';

const failure = (remote: string, code: IslandFailureReport['code']): IslandFailureReport => ({ remote, stage: 'entry', code });

describe('createFailureBeacon', () => {
  it('sends one JSON report per remote and code per page', () => {
    const send = vi.fn();
    const report = createFailureBeacon({ send });
    expect(report({ ...failure('mf-a', 'KHS-ISLAND-002'), module: './One' })).toBe(true);
    expect(report({ ...failure('mf-a', 'KHS-ISLAND-002'), module: './Two' })).toBe(false);
    expect(report(failure('mf-a', 'KHS-ISLAND-007'))).toBe(true);
    expect(report(failure('mf-b', 'KHS-ISLAND-002'))).toBe(true);
    expect(send.mock.calls.map(([path]) => path)).toEqual([ISLAND_FAILURE_REPORT_PATH, ISLAND_FAILURE_REPORT_PATH, ISLAND_FAILURE_REPORT_PATH]);
    expect(JSON.parse(send.mock.calls[0]![1])).toEqual({ remote: 'mf-a', module: './One', stage: 'entry', code: 'KHS-ISLAND-002' });
  });

  it('stops at the cap per page', () => {
    const send = vi.fn();
    const report = createFailureBeacon({ send, maxPerPage: 3 });
    for (let index = 0; index < 10; index += 1) report(failure(`mf-${index}`, 'KHS-ISLAND-001'));
    expect(send).toHaveBeenCalledTimes(3);
  });
});

describe('sendJsonBeacon', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses navigator.sendBeacon with a JSON Blob', async () => {
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', { sendBeacon });
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    sendJsonBeacon('/api/island-failures', '{"a":1}');
    const [path, blob] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(path).toBe('/api/island-failures');
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe('{"a":1}');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it.each([
    ['refuses the beacon', () => false],
    ['throws', () => {
      throw new TypeError('not allowed');
    }],
  ])('falls back to fetch with keepalive when sendBeacon %s', (_why, sendBeacon) => {
    vi.stubGlobal('navigator', { sendBeacon });
    const fetchSpy = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchSpy);
    sendJsonBeacon('/api/island-failures', '{"a":1}');
    expect(fetchSpy).toHaveBeenCalledWith('/api/island-failures', expect.objectContaining({ method: 'POST', body: '{"a":1}', keepalive: true }));
  });
});
