// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MarkupError } from '../../enhance/markup.js';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhancePasswordToggle } from './enhancePasswordToggle.js';

const markup = `<div data-widget="password-toggle"><label for="pw">Password</label><input id="pw" type="password">
  <button type="button" data-password-toggle data-label-show="Show password" data-label-hide="Hide password" hidden>Show password</button></div>`;

describe('password toggle', () => {
  it('shows and hides the password; the button name says what a press does', () => {
    const root = render(markup);
    const cleanup = enhancePasswordToggle(root, testEnv());
    const input = root.querySelector('input')!;
    const button = root.querySelector('button')!;
    expect(button.hidden).toBe(false);
    expect(button.getAttribute('aria-controls')).toBe('pw');
    expect(button.textContent).toBe('Show password');
    button.click();
    expect(input.type).toBe('text');
    expect(button.textContent).toBe('Hide password');
    button.click();
    expect(input.type).toBe('password');
    button.click();
    cleanup();
    expect(input.type).toBe('password');
    expect(button.hidden).toBe(true);
  });

  it('needs a password input', () => {
    const root = render('<div data-widget="password-toggle"><input type="text"><button data-password-toggle></button></div>');
    expect(() => enhancePasswordToggle(root, testEnv())).toThrow(MarkupError);
  });
});
