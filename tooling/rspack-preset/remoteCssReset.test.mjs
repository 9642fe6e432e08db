import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { expandRemoteCssReset, remoteCssReset } from './remoteCssReset.mjs';

describe('remoteCssReset', () => {
  it('writes the reset where the sheet asks for it, with the remote\'s prefix and top elements, and leaves the rest alone', () => {
    const css = "@layer khs-remote.survey { @layer reset { @khs-remote-reset 'khs-survey' (.khs-survey); .khs-survey a { color: red; } } }";
    const expanded = postcss.parse(expandRemoteCssReset(css));
    const selectors = [];
    expanded.walkRules((rule) => selectors.push(rule.selector));
    expect(selectors).toEqual([
      ":where([class*='khs-survey'], [class*='khs-survey'] *):where(:not(svg):not(svg *):not(img):not(video))",
      ":where([class*='khs-survey'] [hidden], [hidden][class*='khs-survey'])",
      ":where([class*='khs-survey'] :is(img, video, svg, svg *), :is(img, video, svg)[class*='khs-survey'])",
      ':where(.khs-survey)',
      ":where([class*='khs-survey'], [class*='khs-survey'] *)",
      ":where([class*='khs-survey'], [class*='khs-survey'] *):focus-visible",
      ":where([class*='khs-survey'] button, button[class*='khs-survey'])",
      '.khs-survey a',
    ]);
    expanded.walkAtRules('khs-remote-reset', () => expect.fail('the request stays in the sheet'));
    expect(expanded.first.type).toBe('atrule');
  });

  it('puts the top elements back to initial values with the design tokens', () => {
    const root = postcss.parse(remoteCssReset({ classPrefix: 'khs-search-', roots: '.khs-search-header, .khs-search-list' }));
    const roots = root.nodes.find((node) => node.type === 'rule' && node.selector === ':where(.khs-search-header, .khs-search-list)');
    expect(Object.fromEntries(roots.nodes.filter((node) => node.type === 'decl').map((decl) => [decl.prop, decl.value]))).toEqual({
      all: 'initial',
      display: 'revert',
      'text-decoration': 'revert',
      color: 'var(--ink, #1b1f24)',
      'font-family': 'var(--font-family, system-ui, sans-serif)',
      'font-size': '1rem',
      'line-height': '1.55',
    });
  });

  it('refuses a request it cannot read, naming the file', () => {
    expect(() => expandRemoteCssReset('@layer x { @khs-remote-reset (.khs-a); }', 'mf-a/src/a.css')).toThrow(
      `mf-a/src/a.css: "@khs-remote-reset (.khs-a);" must read @khs-remote-reset 'khs-<prefix>' (<top element selectors>);`,
    );
  });
});
