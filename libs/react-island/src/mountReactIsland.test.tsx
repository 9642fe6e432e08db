// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mountReactIsland } from './mountReactIsland.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Boom(): never {
  throw new Error('render failed');
}

describe('mountReactIsland', () => {
  afterEach(() => vi.restoreAllMocks());

  it('replaces the server fallback with the rendered tree and unmounts cleanly', async () => {
    const element = document.createElement('div');
    element.innerHTML = '<span>fallback</span>';
    let unmount = () => {};
    await act(async () => {
      unmount = mountReactIsland(element, 'test/Ok', <p>live</p>);
    });
    expect(element.textContent).toBe('live');
    await act(async () => unmount());
    expect(element.textContent).toBe('');
  });

  it('puts the fallback back and logs when the tree throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const element = document.createElement('div');
    element.innerHTML = '<span>fallback</span>';
    await act(async () => {
      mountReactIsland(element, 'test/Boom', <Boom />);
    });
    await act(async () => {
      await Promise.resolve();
    });
    expect(element.innerHTML).toBe('<span>fallback</span>');
    expect(error.mock.calls.some((call) => String(call[0]).includes('test/Boom'))).toBe(true);
  });
});
