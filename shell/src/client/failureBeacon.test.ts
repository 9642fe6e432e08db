// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageReporter, sendJsonBeacon } from './failureBeacon.js';
import { ISLAND_FAILURE_REPORT_PATH, type IslandFailureReport, type PageReport } from '../shared/islandFailureReport.js';

const failure = (remote: string, code: IslandFailureReport['code']): IslandFailureReport => ({ remote, stage: 'entry', code });

/** A reporter with a fake send and a hand-driven timer. */
function reporterUnderTest(options: { maxFailuresPerPage?: number } = {}) {
  const send = vi.fn();
  let pending: (() => void) | undefined;
  const reporter = createPageReporter({
    ...options,
    send,
    setTimer: (callback) => (pending = callback),
    clearTimer: () => (pending = undefined),
  });
  const bodies = () => send.mock.calls.map(([path, body]) => {
    expect(path).toBe(ISLAND_FAILURE_REPORT_PATH);
    return JSON.parse(body) as PageReport;
  });
  return { reporter, bodies, elapse: () => pending?.() };
}

describe('createPageReporter', () => {
  it('sends the builds a page ran and its failures in one beacon once things are quiet', () => {
    const { reporter, bodies, elapse } = reporterUnderTest();
    reporter.recordBuild('mf-a', '1.0.0+aaa');
    reporter.recordBuild('mf-b', '2.0.0+bbb');
    expect(reporter.reportFailure({ ...failure('mf-a', 'KHS-ISLAND-010'), stage: 'hydrate', module: './One' })).toBe(true);
    expect(bodies()).toEqual([]);
    elapse();
    expect(bodies()).toEqual([
      {
        views: { 'mf-a': '1.0.0+aaa', 'mf-b': '2.0.0+bbb' },
        failures: [{ remote: 'mf-a', module: './One', stage: 'hydrate', code: 'KHS-ISLAND-010', remoteVersion: '1.0.0+aaa' }],
      },
    ]);
  });

  it('counts each remote once per page and reports each remote and code once', () => {
    const { reporter, bodies, elapse } = reporterUnderTest();
    reporter.recordBuild('mf-a', '1');
    expect(reporter.reportFailure({ ...failure('mf-a', 'KHS-ISLAND-002'), module: './One' })).toBe(true);
    expect(reporter.reportFailure({ ...failure('mf-a', 'KHS-ISLAND-002'), module: './Two' })).toBe(false);
    elapse();
    reporter.recordBuild('mf-a', '1');
    expect(reporter.reportFailure(failure('mf-a', 'KHS-ISLAND-007'))).toBe(true);
    reporter.flush();
    reporter.flush();
    expect(bodies()).toEqual([
      { views: { 'mf-a': '1' }, failures: [{ remote: 'mf-a', module: './One', stage: 'entry', code: 'KHS-ISLAND-002', remoteVersion: '1' }] },
      { failures: [{ remote: 'mf-a', stage: 'entry', code: 'KHS-ISLAND-007', remoteVersion: '1' }] },
    ]);
  });

  it('keeps the version a loader reported, and sends failures of a remote whose build is unknown without one', () => {
    const { reporter, bodies } = reporterUnderTest();
    reporter.reportFailure({ ...failure('mf-a', 'KHS-ISLAND-002'), remoteVersion: 'from-manifest' });
    reporter.reportFailure(failure('mf-b', 'KHS-ISLAND-001'));
    reporter.recordBuild('mf-a', 'other');
    reporter.flush();
    expect(bodies()[0]!.failures).toEqual([
      { remote: 'mf-a', stage: 'entry', code: 'KHS-ISLAND-002', remoteVersion: 'from-manifest' },
      { remote: 'mf-b', stage: 'entry', code: 'KHS-ISLAND-001' },
    ]);
  });

  it('stops at the cap of failures per page', () => {
    const { reporter, bodies } = reporterUnderTest({ maxFailuresPerPage: 3 });
    for (let index = 0; index < 10; index += 1) reporter.reportFailure(failure(`mf-${index}`, 'KHS-ISLAND-001'));
    reporter.flush();
    expect(bodies()[0]!.failures).toHaveLength(3);
  });

  it('sends nothing for a page without builds or failures', () => {
    const { reporter, bodies } = reporterUnderTest();
    reporter.flush();
    expect(bodies()).toEqual([]);
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
