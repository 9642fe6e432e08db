/** How many builds' server folders are remembered per container (older ones are long retired). */
const FOLDERS_PER_CONTAINER = 16;

/**
 * The server folders of the builds of each container this process loaded, most recent first.
 * Several builds of one remote run at once (the live one, a preview, a canary side, a pinned
 * page's), and the node runtime resolves a container's chunk URLs by the container's *name*
 * (`@module-federation/node`'s runtime plugin, `returnFromCache`): every build's chunks are asked
 * for in the folder of the build registered under that name. Chunk files are content-hashed, so a
 * chunk missing there is looked up, by its file name, in the other builds' folders.
 */
export class BuildFolders {
  private readonly byContainer = new Map<string, string[]>();

  /** A server entry of `containerName` at `entryUrl` is being loaded. */
  record(containerName: string, entryUrl: string): void {
    const folder = new URL('./', entryUrl).href;
    const folders = [folder, ...(this.byContainer.get(containerName) ?? []).filter((known) => known !== folder)];
    this.byContainer.set(containerName, folders.slice(0, FOLDERS_PER_CONTAINER));
  }

  /** The same file in the other known folders of the container whose folder `url` is in, most recent first. */
  alternativesFor(url: string): string[] {
    const parsed = new URL(url);
    const file = parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1);
    const folder = new URL('./', parsed).href;
    for (const folders of this.byContainer.values()) {
      if (folders.includes(folder)) return folders.filter((other) => other !== folder).map((other) => new URL(file, other).href);
    }
    return [];
  }
}
