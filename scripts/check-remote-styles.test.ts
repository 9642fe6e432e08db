import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck, tree as writeTree } from './testing/checkScriptHarness.js';

const script = path.join(import.meta.dirname, 'check-remote-styles.mjs');
const tree = (files: Record<string, string>) => writeTree(files, 'remote-styles-');
const run = (root: string) => runCheck(script, root);

const goodShell = `@layer khs-shell-base, khs-shell, khs-remote;
@layer khs-shell-base { :root { --ink: #111; } button { color: red; } }
@layer khs-shell { .site-header { display: flex; } .visually-hidden { position: absolute !important; } }`;

const goodRemote = `@layer khs-shell-base, khs-shell, khs-remote;
@layer khs-remote.search {
  @layer reset, components;
  @layer reset {
    :where([class*='khs-search-'], [class*='khs-search-'] *):where(:not(svg, img)) { all: revert; }
    :where(.khs-search-header, .khs-search-list) { all: initial; }
  }
  @layer components {
    .khs-search-list > li button:hover, .khs-search-tag[aria-pressed='true'] { color: red; }
    @media (max-width: 40rem) { .khs-search-teaser__link { display: block; } }
    @keyframes khs-search-spin { to { transform: rotate(360deg); } }
  }
}`;

describe('check-remote-styles', () => {
  it('passes layered, prefixed remote CSS and layered shell CSS', () => {
    const root = tree({ 'mf-search/src/styles/search.css': goodRemote, 'shell/public/site.css': goodShell });
    const result = run(root);
    expect(result).toEqual({ code: 0, output: expect.stringContaining('Styles isolated') });
  });

  it('ignores the demo pages under standalone/', () => {
    const root = tree({ 'mf-search/src/standalone/demo.css': 'body { margin: 0; }', 'shell/public/site.css': goodShell });
    expect(run(root).code).toBe(0);
  });

  it.each([
    ['an unlayered remote rule', '.khs-search-x { color: red; }', 'is unlayered, not in khs-remote.search'],
    ['a rule in another layer', '@layer khs-shell { .khs-search-x { color: red; } }', 'in layer khs-shell, not in khs-remote.search'],
    ['an element selector', '@layer khs-remote.search { button { color: red; } }', '"button" does not name a .khs-search class'],
    ['a global ARIA selector', "@layer khs-remote.search { [role='option'] { color: red; } }", `"[role='option']" does not name`],
    ['another remote\'s prefix', '@layer khs-remote.search { .khs-searchbox { color: red; } }', '".khs-searchbox" does not name'],
    ['a page element in a :where() list', '@layer khs-remote.search { :where(.khs-search-x, body) p { color: red; } }', '"body p" does not name'],
    ['a sibling of a remote element', '@layer khs-remote.search { .khs-search-x + p { color: red; } }', 'reaches siblings'],
    ['an ancestor-only scope', '@layer khs-remote.search { body .khs-search-x ~ div { color: red; } }', 'reaches siblings'],
    ['an unprefixed keyframes name', '@layer khs-remote.search { @keyframes spin { to { opacity: 0; } } }', '@keyframes spin must be named khs-search-'],
    ['an @import', "@import '../../shell/public/site.css';", '@import'],
  ])('fails for %s', (_, css, message) => {
    const root = tree({ 'mf-search/src/styles/search.css': css, 'shell/public/site.css': goodShell });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(message);
  });

  it.each([
    ['an unlayered shell rule', 'button { color: red; }', '"button" is unlayered, not in khs-shell-base or khs-shell'],
    ['a shell rule in a remote layer', '@layer khs-remote { a { color: red; } }', 'in layer khs-remote'],
    ['!important in the base layer', '@layer khs-shell-base { li { margin: 0 !important; } }', 'margin is !important in khs-shell-base'],
    ['a shell rule on a remote class', '@layer khs-shell { .khs-search-tag { color: white; } }', 'targets a remote\'s class'],
  ])('fails for %s', (_, css, message) => {
    const root = tree({ 'mf-search/src/styles/search.css': goodRemote, 'shell/public/site.css': css });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(message);
  });

  it('checks every stylesheet the shell serves as the shell’s, widget styles included', () => {
    const root = tree({
      'mf-widgets/src/index.ts': '',
      'shell/public/site.css': goodShell,
      'shell/public/widgets.css': '@layer khs-remote.widgets.components { .khs-widgets-tabs { display: block; } }',
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('shell/public/widgets.css: ".khs-widgets-tabs" is in layer khs-remote.widgets.components, not in khs-shell-base or khs-shell');
    expect(result.output).toContain('shell/public/widgets.css: ".khs-widgets-tabs" targets a remote\'s class');
  });
  it('checks the shared reset a remote asks for as written in, with that remote\'s prefix', () => {
    const asking = (prefix: string) => `@layer khs-shell-base, khs-shell, khs-remote;
@layer khs-remote.survey {
  @layer reset { @khs-remote-reset '${prefix}' (.khs-survey); }
}`;
    expect(run(tree({ 'mf-survey/src/components/survey.css': asking('khs-survey'), 'shell/public/site.css': goodShell })).code).toBe(0);
    const borrowed = run(tree({ 'mf-survey/src/components/survey.css': asking('khs-search-'), 'shell/public/site.css': goodShell }));
    expect(borrowed.code).toBe(1);
    expect(borrowed.output).toContain(`mf-survey/src/components/survey.css: "[class*='khs-search-'] [hidden]" does not name a .khs-survey class`);
  });

  it('fails for a reset request it cannot read', () => {
    const css = `@layer khs-remote.survey { @layer reset { @khs-remote-reset khs-survey; } }`;
    const result = run(tree({ 'mf-survey/src/components/survey.css': css, 'shell/public/site.css': goodShell }));
    expect(result.code).toBe(1);
    expect(result.output).toContain(`mf-survey/src/components/survey.css: "@khs-remote-reset khs-survey;" must read @khs-remote-reset 'khs-<prefix>' (<top element selectors>);`);
  });
});
