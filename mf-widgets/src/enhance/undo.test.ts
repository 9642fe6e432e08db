// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { UndoStack, withUndo } from './undo.js';

describe('UndoStack', () => {
  it('puts attributes, classes, styles and inserted nodes back and removes listeners', () => {
    document.body.innerHTML = '<div id="host" title="before" class="a"></div>';
    const host = document.getElementById('host')!;
    const onClick = vi.fn();
    const undo = new UndoStack();
    undo.setAttribute(host, 'title', 'after');
    undo.setAttribute(host, 'role', 'region');
    undo.addClass(host, 'b');
    undo.setStyle(host, '--x', '3px');
    undo.insert(document.createElement('span'), host);
    undo.listen(host, 'click', onClick);
    undo.run();
    host.click();
    expect(onClick).not.toHaveBeenCalled();
    expect(host.outerHTML).toBe('<div id="host" title="before" class="a"></div>');
  });

  it('withUndo undoes a half-done enhancement when the body throws', () => {
    document.body.innerHTML = '<div id="host"></div>';
    const host = document.getElementById('host')!;
    expect(() =>
      withUndo((undo) => {
        undo.addClass(host, 'is-enhanced');
        throw new Error('markup broken');
      }),
    ).toThrow('markup broken');
    expect(host.classList.contains('is-enhanced')).toBe(false);
  });
});
