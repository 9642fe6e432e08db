import { describe, expect, it } from 'vitest';
import { applyExposeRequirements, shareKeyOf } from './exposeShared.mjs';

describe('shareKeyOf', () => {
  it('reads the share key of a consume-shared module, scoped packages and subpaths included', () => {
    expect(shareKeyOf('consume shared module (default) react-dom/server@19.3.1 (strict) (fallback: /x/server.node.js)')).toBe('react-dom/server');
    expect(shareKeyOf('consume shared module (default) @scope/pkg@^1.0.0 (fallback: /x)')).toBe('@scope/pkg');
    expect(shareKeyOf('provide shared module (default) react@19.3.1 = /x')).toBeNull();
  });
});

describe('applyExposeRequirements', () => {
  const requiresByGroup = new Map([
    ['__federation_expose_Dialog', ['react-dom/server']],
    ['__federation_expose_FileField', ['react', 'react-dom/server']],
    ['__federation_expose_PageWidgets', []],
  ]);

  it("replaces the stats' issuer-based lists: every expose that consumes a shared module names it, and usedIn lists them all", () => {
    // What rspack's manifest plugin wrote: react-dom/server attributed to its first issuer only.
    const stats = {
      exposes: [
        { name: 'PageWidgets', file: 'src/PageWidgets.ts', requires: [] },
        { name: 'FileField', file: 'src/FileField.tsx', requires: ['react-dom/server'] },
        { name: 'Dialog', file: 'src/Dialog.tsx', requires: [] },
      ],
      shared: [
        { name: 'react-dom/server', usedIn: ['src/FileField.tsx'] },
        { name: 'react', usedIn: ['../node_modules/react-dom/cjs/react-dom-server.node.production.js'] },
      ],
    };
    applyExposeRequirements(stats, requiresByGroup);
    expect(stats.exposes.map((expose) => [expose.name, expose.requires])).toEqual([
      ['PageWidgets', []],
      ['FileField', ['react', 'react-dom/server']],
      ['Dialog', ['react-dom/server']],
    ]);
    expect(stats.shared).toEqual([
      { name: 'react', usedIn: ['src/FileField.tsx'] },
      { name: 'react-dom/server', usedIn: ['src/Dialog.tsx', 'src/FileField.tsx'] },
    ]);
  });

  it('adds requires to a manifest (no usedIn there) and leaves an expose without a chunk group sorted', () => {
    const manifest = { exposes: [{ name: 'Dialog' }, { name: 'Unknown', requires: ['b', 'a', 'b'] }], shared: [{ name: 'react' }] };
    applyExposeRequirements(manifest, requiresByGroup);
    expect(manifest).toEqual({ exposes: [{ name: 'Dialog', requires: ['react-dom/server'] }, { name: 'Unknown', requires: ['a', 'b'] }], shared: [{ name: 'react' }] });
  });

  it('sorts the shared list by id, whatever order the build met the shared modules in', () => {
    const document = { shared: [{ id: 'mf:react-dom', name: 'react-dom' }, { id: 'mf:contracts', name: 'contracts' }, { id: 'mf:react', name: 'react' }] };
    expect(applyExposeRequirements(document, new Map()).shared.map((shared) => shared.name)).toEqual(['contracts', 'react', 'react-dom']);
  });
});
