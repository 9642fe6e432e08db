// The standalone page's tiny host (toolchain-notes, "One federation runtime per page", recipe A):
// it provides the federation runtime as the shell does, then loads the remote from its own
// manifest (one folder up: the page lives in `dist/standalone/`) and runs its `./Standalone`
// module, which mounts the demo islands. The remote itself is built against the external runtime.
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

/* global __KHS_REMOTE_NAME__ */
const name = __KHS_REMOTE_NAME__;
registerRemotes([{ name, entry: new URL('../mf-manifest.json', document.baseURI).href }]);
loadRemote(`${name}/Standalone`).catch((error) => {
  console.error(`[${name} standalone] the remote did not load`, error);
});
