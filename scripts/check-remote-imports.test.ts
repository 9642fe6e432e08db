import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck, tree as writeTree } from './testing/checkScriptHarness.js';

const script = path.join(import.meta.dirname, 'check-remote-imports.mjs');
const tree = (files: Record<string, string>) => writeTree(files, 'remote-imports-');
const run = (root: string) => runCheck(script, root);

const pkg = (name: string, deps: Record<string, string> = {}) => JSON.stringify({ name, dependencies: deps });

describe('check-remote-imports', () => {
  it('passes when remotes only import contracts and their own files', () => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a', { contracts: '^1.0.0' }),
      'mf-a/src/x.ts': "import { getPageBus } from 'contracts';\nimport { y } from './y.js';",
      'mf-b/package.json': pkg('mf-b'),
      'mf-b/src/y.ts': 'export const y = 1;',
    });
    expect(run(root).code).toBe(0);
  });

  it.each([
    ['a package import', "import { y } from 'mf-b/src/y.js';"],
    ['a relative import', "import { y } from '../../mf-b/src/y.js';"],
    ['a dynamic import', "const m = await import('mf-b');"],
  ])('fails on %s of another remote', (_label, line) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/src/x.ts': line,
      'mf-b/package.json': pkg('mf-b'),
      'mf-b/src/y.ts': 'export const y = 1;',
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('mf-a/src/x.ts');
  });

  it('fails on a dependency on another remote', () => {
    const root = tree({ 'mf-a/package.json': pkg('mf-a', { 'mf-b': '1.0.0' }), 'mf-b/package.json': pkg('mf-b') });
    expect(run(root).output).toContain('depends on mf-b');
  });

  it.each([
    ['a package import', "import { Island } from 'shell/src/server/pages/Island.js';"],
    ['a relative import', "import { formatDate } from '../../shell/src/server/pages/format.js';"],
  ])('fails when a remote imports the shell through %s', (_label, line) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/src/x.ts': line,
      'shell/package.json': pkg('shell'),
      'shell/src/server/pages/format.ts': 'export const formatDate = 1;',
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('mf-a/src/x.ts');
    expect(result.output).toContain('(shell)');
  });

  it("fails when a remote's bench imports the shell (a bench that needs the page starts the site)", () => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/bench/page-bench.ts': "import { ArticlePage } from '../../shell/src/server/pages/ArticlePage.js';",
      'shell/package.json': pkg('shell'),
      'shell/src/server/pages/ArticlePage.ts': 'export const ArticlePage = 1;',
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('mf-a/bench/page-bench.ts');
  });

  it.each([
    ['a package import', "import { render } from 'mf-a/src/islands/A.server.js';"],
    ['a relative import', "import { render } from '../../../mf-a/src/islands/A.server.js';"],
  ])("fails when the shell imports a remote's source through %s", (_label, line) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/src/islands/A.server.ts': 'export const render = 1;',
      'shell/package.json': pkg('shell'),
      'shell/src/server/pages.ts': line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('shell/src/server/pages.ts');
    expect(result.output).toContain('(mf-a)');
  });

  it('fails when the shell depends on a remote, and passes when it only uses contracts', () => {
    const dependent = tree({ 'mf-a/package.json': pkg('mf-a'), 'shell/package.json': pkg('shell', { 'mf-a': '0.1.0' }) });
    expect(run(dependent).output).toContain('shell/package.json depends on mf-a');
    const clean = tree({
      'mf-a/package.json': pkg('mf-a', { contracts: '^1.0.0' }),
      'shell/package.json': pkg('shell', { contracts: '^1.0.0' }),
      'shell/src/server/x.ts': "import { containerName } from 'contracts';\nconst island = 'mf-a/Island';",
    });
    const result = run(clean);
    expect(result.code).toBe(0);
    expect(result.output).toContain('1 remotes and the shell checked');
  });

  it('fails on an import cycle between two folders of the shell server, naming the cycle', () => {
    const root = tree({
      'shell/package.json': pkg('shell'),
      'shell/src/server/pages/routes.ts': "import { renderContact } from '../contact/render.js';",
      'shell/src/server/contact/render.ts': "import { Layout } from '../pages/Layout.js';",
      'shell/src/server/pages/Layout.ts': 'export const Layout = 1;',
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('import cycle between folders of shell/src/server: contact → pages → contact');
  });

  it('fails on a longer cycle, and passes when the imports only go one way', () => {
    const cyclic = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/src/a/x.ts': "import { y } from '../b/y.js';",
      'mf-a/src/b/y.ts': "import { z } from '../c/z.js';",
      'mf-a/src/c/z.ts': "import { x } from '../a/x.js';",
    });
    expect(run(cyclic).output).toContain('import cycle between folders of mf-a/src: a → b → c → a');
    const oneWay = tree({
      'shell/package.json': pkg('shell'),
      'shell/src/server/contact/routes.ts': "import { Layout } from '../pages/Layout.js';\nimport type { Options } from '../options.js';",
      'shell/src/server/options.ts': 'export type Options = {};',
      'shell/src/server/pages/Layout.ts': "import { format } from './format.js';",
      'shell/src/server/pages/format.ts': 'export const format = 1;',
      'shell/src/server/app.ts': "import { routes } from './contact/routes.js';",
    });
    expect(run(oneWay).code).toBe(0);
  });

  it('fails on each import cycle between files, anywhere, type-only imports and files at a folder root included; test files aside', () => {
    const result = run(
      tree({
        'shell/package.json': pkg('shell'),
        'shell/src/server/app.ts': "import { readConfig } from './config.js';",
        'shell/src/server/config.ts': "import type { Policy } from './proxy/policy.js';",
        'shell/src/server/proxy/policy.ts': "import type { Route } from './proxy.js';",
        'shell/src/server/proxy/proxy.ts': "import type { ApiError } from '../app.js';",
        'mf-a/package.json': pkg('mf-a'),
        'mf-a/src/islands/List.ts': "import { load } from './loadList.js';",
        'mf-a/src/islands/loadList.ts': "import type { ListModule } from './List.js';",
        'mf-a/src/islands/List.test.ts': "import { load } from './loadList.js';",
        'e2e/harness/a.ts': "import { b } from './b.js';",
        'e2e/harness/b.ts': "import { a } from './a.js';",
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('import cycle between files: shell/src/server/app.ts → shell/src/server/config.ts → shell/src/server/proxy/policy.ts → shell/src/server/proxy/proxy.ts → shell/src/server/app.ts');
    expect(result.output).toContain('import cycle between files: mf-a/src/islands/List.ts → mf-a/src/islands/loadList.ts → mf-a/src/islands/List.ts');
    expect(result.output).toContain('import cycle between files: e2e/harness/a.ts → e2e/harness/b.ts → e2e/harness/a.ts');
    expect(result.output.match(/import cycle between files/g)).toHaveLength(3);
  });

  it.each([
    ['a remote', "import { Survey } from '../../mf-a/src/Survey.js';", '(mf-a)'],
    ['the shell', "import { csrf } from 'shell/src/server/security/csrf.js';", '(shell)'],
  ])('fails when a service (search-engine) imports %s', (_label, line, target) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/src/Survey.ts': 'export const Survey = 1;',
      'shell/package.json': pkg('shell'),
      'search-engine/package.json': pkg('@khs/search-engine'),
      'search-engine/src/server.ts': line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('search-engine/src/server.ts');
    expect(result.output).toContain(target);
  });

  it.each([
    ['an import of the engine', "import { superviseSearchServer } from '@khs/search-engine';", 'shell/src/server/search/searchService.ts imports "@khs/search-engine" (search-engine)'],
    ['a subpath import of the engine', "import { start } from '@khs/search-engine/server-process';", 'shell/src/server/search/searchService.ts imports "@khs/search-engine/server-process" (search-engine)'],
  ])('fails when the shell has %s (a scoped name read whole, mapped to its workspace)', (_label, line, message) => {
    const root = tree({
      'search-engine/package.json': pkg('@khs/search-engine'),
      'content/package.json': pkg('@khs/content'),
      'shell/package.json': pkg('shell', { '@khs/content': '0.1.0' }),
      'shell/src/server/content.ts': "import { listArticles } from '@khs/content';",
      'shell/src/server/search/searchService.ts': line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(message);
    // The same scope, another workspace: the shell may read the content store.
    expect(result.output).not.toContain('shell/src/server/content.ts');
  });

  it('fails when the shell depends on the engine', () => {
    const root = tree({ 'search-engine/package.json': pkg('@khs/search-engine'), 'shell/package.json': pkg('shell', { '@khs/search-engine': '0.1.0' }) });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('shell/package.json depends on @khs/search-engine');
  });

  it.each([
    ['the content store', "import { listArticles } from '@khs/content';", '"@khs/content" (content)'],
    ['contracts', "import type { SearchHit } from 'contracts';", '"contracts" (contracts)'],
    ['the content store (relative)', "import { listArticles } from '../../content/src/index.js';", '(content)'],
  ])('fails when the search engine imports %s (it is a generic server)', (_label, line, message) => {
    const root = tree({
      'content/package.json': pkg('@khs/content'),
      'contracts/package.json': pkg('contracts'),
      'search-engine/package.json': pkg('@khs/search-engine'),
      'search-engine/test/fixtures.ts': line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`search-engine/test/fixtures.ts imports ${message.startsWith('"') ? message : ''}`);
    expect(result.output).toContain(message);
  });

  it('fails when the search engine depends on content or contracts, and passes with its own fixtures and @khs/stack', () => {
    const dependent = tree({
      'content/package.json': pkg('@khs/content'),
      'contracts/package.json': pkg('contracts'),
      'search-engine/package.json': pkg('@khs/search-engine', { '@khs/content': '0.1.0', contracts: '^1.0.0' }),
    });
    const output = run(dependent).output;
    expect(output).toContain('search-engine/package.json depends on @khs/content');
    expect(output).toContain('search-engine/package.json depends on contracts');
    const generic = tree({
      'content/package.json': pkg('@khs/content'),
      'tooling/stack/package.json': pkg('@khs/stack'),
      'search-engine/package.json': pkg('@khs/search-engine', { '@khs/stack': '0.1.0' }),
      'search-engine/src/supervise.ts': "import { supervise } from '@khs/stack/supervisor';",
      'search-engine/test/x.test.ts': "import { fixtureCollectionSchema } from './fixtures/collection-schema.js';",
      'mf-a/package.json': pkg('mf-a', { '@khs/search-engine': '0.1.0' }),
      'mf-a/server/src/sets.ts': "import { parseSynonymItem } from '@khs/search-engine';",
    });
    expect(run(generic).code).toBe(0);
  });

  it.each([
    ['another slice (relative)', "import { x } from '../../../mf-b/server/src/x.js';", '(mf-b)'],
    ['another slice (package)', "import { x } from 'mf-b/server/src/x.js';", '(mf-b)'],
    ['the shell', "import { csrf } from '../../../shell/src/server/security/csrf.js';", '(shell)'],
  ])("fails when a slice's service imports %s", (_label, line, target) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/server/src/routes.ts': line,
      'mf-b/package.json': pkg('mf-b'),
      'mf-b/server/src/x.ts': 'export const x = 1;',
      'shell/package.json': pkg('shell'),
      'shell/src/server/security/csrf.ts': 'export const csrf = 1;',
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('mf-a/server/src/routes.ts');
    expect(result.output).toContain(target);
  });

  it.each([
    ['a package import', "import { surveyRoutes } from 'mf-a/server/src/surveyRoutes.js';"],
    ['a relative import', "import { surveyRoutes } from '../../../mf-a/server/src/surveyRoutes.js';"],
  ])("fails when the shell imports a slice's service through %s", (_label, line) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/server/src/surveyRoutes.ts': 'export const surveyRoutes = 1;',
      'shell/package.json': pkg('shell'),
      'shell/src/server/productFeatures.ts': line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('shell/src/server/productFeatures.ts');
    expect(result.output).toContain('(mf-a)');
  });

  it.each([
    ['libs/kit', 'libs/kit/src/index.ts', "import { x } from '../../../mf-a/server/src/x.js';", '(mf-a)'],
    ['tooling/stack', 'tooling/stack/start.mjs', "import { app } from '../../shell/src/server/app.js';", '(shell)'],
    ['contracts', 'contracts/src/index.ts', "import { x } from 'mf-a/src/x.js';", '(mf-a)'],
  ])('fails when shared code (%s) imports a slice or the shell', (_label, file, line, target) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/server/src/x.ts': 'export const x = 1;',
      'shell/package.json': pkg('shell'),
      'shell/src/server/app.ts': 'export const app = 1;',
      'libs/kit/package.json': pkg('@khs/kit'),
      'tooling/stack/package.json': pkg('@khs/stack'),
      'contracts/package.json': pkg('contracts'),
      [file]: line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(file);
    expect(result.output).toContain(target);
  });

  it("passes when a slice's service uses the shared kit and contracts, and names a cycle inside it", () => {
    const clean = tree({
      'mf-a/package.json': pkg('mf-a', { '@khs/kit': '0.1.0', contracts: '^1.0.0' }),
      'mf-a/server/src/main.ts': "import { createServiceApp } from '@khs/kit';\nimport { routes } from './routes/routes.js';",
      'mf-a/server/src/routes/routes.ts': "import { openStorage } from '../storage/open.js';\nimport { DEFAULT_CALL_URLS } from 'contracts';",
      'mf-a/server/src/storage/open.ts': 'export const openStorage = 1;',
      'libs/kit/package.json': pkg('@khs/kit'),
      'libs/kit/src/index.ts': "import Fastify from 'fastify';",
      'shell/package.json': pkg('shell', { '@khs/kit': '0.1.0' }),
      'shell/src/server/proxy.ts': "import { EDGE_KEY_HEADER } from '@khs/kit/edge';",
    });
    const result = run(clean);
    expect(result.code).toBe(0);
    expect(result.output).toContain('1 shared packages');
    const cyclic = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/server/src/routes/routes.ts': "import { openStorage } from '../storage/open.js';",
      'mf-a/server/src/storage/open.ts': "import { routes } from '../routes/routes.js';",
    });
    expect(run(cyclic).output).toContain('import cycle between folders of mf-a/server/src: routes → storage → routes');
  });
  it.each([
    ['the shell imports the contact slice', 'shell/src/server/x.ts', "import { ContactPage } from '../../../contact/server/src/ContactPage.js';", '(contact)'],
    ['the contact slice imports the shell', 'contact/server/src/x.ts', "import { Layout } from '../../../shell/src/server/pages/Layout.js';", '(shell)'],
    ['the contact slice imports a remote', 'contact/server/src/x.ts', "import { Survey } from 'mf-a/src/Survey.js';", '(mf-a)'],
    ['a remote imports the contact slice', 'mf-a/src/x.ts', "import { CONTACT_PATH } from 'contact/server/src/renderContactFragment.js';", '(contact)'],
  ])('fails when %s (a slice without a browser remote is a slice too)', (_label, file, line, target) => {
    const root = tree({
      'mf-a/package.json': pkg('mf-a'),
      'mf-a/src/Survey.ts': 'export const Survey = 1;',
      'contact/package.json': pkg('contact', { contracts: '^1.0.0' }),
      'contact/server/src/ContactPage.ts': 'export const ContactPage = 1;',
      'shell/package.json': pkg('shell'),
      'shell/src/server/pages/Layout.ts': 'export const Layout = 1;',
      [file]: line,
    });
    const result = run(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`${file} imports`);
    expect(result.output).toContain(target);
  });

  it('passes when the contact slice and the shell only share contracts', () => {
    const root = tree({
      'contact/package.json': pkg('contact', { contracts: '^1.0.0' }),
      'contact/server/src/page.ts': "import { CONTACT_SERVICE_PATHS } from 'contracts';",
      'shell/package.json': pkg('shell', { contracts: '^1.0.0' }),
      'shell/src/server/x.ts': "import { CONTACT_SERVICE_PATHS } from 'contracts';",
    });
    const result = run(root);
    expect(result.code).toBe(0);
    expect(result.output).toContain('1 remotes and the shell checked');
  });
});
