// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceFileUpload } from './enhanceFileUpload.js';

function choose(input: HTMLInputElement, names: string[]) {
  const files = names.map((name) => new File(['x'], name));
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('file upload name display', () => {
  it('shows the chosen file names, or the empty text', () => {
    const root = render(`<div data-widget="file-upload"><label for="f">File</label><input id="f" type="file">
      <p data-file-name data-empty-text="Nothing chosen" hidden>Nothing chosen</p></div>`);
    const cleanup = enhanceFileUpload(root, testEnv());
    const input = root.querySelector('input')!;
    const output = root.querySelector<HTMLElement>('[data-file-name]')!;
    expect(output.hidden).toBe(false);
    expect(output.textContent).toBe('Nothing chosen');
    expect(input.getAttribute('aria-describedby')).toBe(output.id);
    choose(input, ['cv.pdf']);
    expect(output.textContent).toBe('cv.pdf');
    choose(input, ['a.png', 'b.png']);
    expect(output.textContent).toBe('a.png, b.png');
    choose(input, []);
    expect(output.textContent).toBe('Nothing chosen');
    cleanup();
    expect(output.hidden).toBe(true);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });
});
