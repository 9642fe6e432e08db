import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { describe, expect, it } from 'vitest';
import { CONTAINER_SETUP_MODULE, containerSetupCall, writeContainerSetupModule } from './containerSetup.mjs';

const require = createRequire(import.meta.url);

describe("the containers' federation setup, provided by the host", () => {
  it("the host's copy is rspack's own setup for the installed rspack, as a function of the container's values", async () => {
    await writeContainerSetupModule();
    const { default: setup } = await import(CONTAINER_SETUP_MODULE);
    expect(setup).toBeTypeOf('function');
    expect(setup.length).toBe(2);
    const original = await import(path.join(path.dirname(require.resolve('@rspack/core')), 'moduleFederationDefaultRuntime.js'));
    expect(readFileSync(CONTAINER_SETUP_MODULE, 'utf8')).toContain(rspack.Template.getFunctionContent(original.default));
  });

  it("a container's entry runtime keeps its values and calls the host's copy instead of carrying the body, refusing clearly without it", () => {
    const source = [
      'import __module_federation_bundler_runtime__ from "x/index.cjs"',
      'const __module_federation_runtime_plugins__ = [].filter(({ plugin }) => plugin).map(({ plugin, params }) => plugin(params))',
      'const __module_federation_remote_infos__ = {}',
      'const __module_federation_container_name__ = "mf_demo"',
      'const __module_federation_share_strategy__ = "loaded-first"',
      'const __module_federation_share_fallbacks__ = undefined',
      'const __module_federation_library_type__ = "var"',
      'const runtimeRequire=__webpack_require__;if((runtimeRequire.initializeSharingData||runtimeRequire.initializeExposesData)&&runtimeRequire.federation){/* the long body */}',
    ].join(';');
    const rewritten = containerSetupCall(source);
    expect(rewritten).not.toContain('the long body');
    expect(rewritten).toContain('const __module_federation_container_name__ = "mf_demo"');
    expect(rewritten).toContain('globalThis._KHS_FEDERATION_BUNDLER_RUNTIME.setupContainer(__webpack_require__, { bundlerRuntime: __module_federation_bundler_runtime__,');
    expect(rewritten).toContain("needs the page's federation bundler runtime");
    expect(() => containerSetupCall('const other = 1')).toThrow(/no body to replace/);
  });
});
