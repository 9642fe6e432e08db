// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceCookieLink } from './enhanceCookieLink.js';

describe('cookie-banner links', () => {
  it('ask for the consent panel on the bus instead of jumping', () => {
    const link = render('<a href="#cookie-banner">Cookie settings</a>');
    const env = testEnv();
    const requested = vi.fn();
    env.bus.on('consent-panel-requested', requested);
    const cleanup = enhanceCookieLink(link, env);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(requested).toHaveBeenCalledWith({ source: 'mf-widgets/cookie-link' });
    cleanup();
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(requested).toHaveBeenCalledTimes(1);
  });
});
