/** Every workspace folder of the repository at `root` (default this one), relative to it, `/`-separated: the root `workspaces` globs expanded as npm does. */
export function workspaceFolders(root?: string): string[];
