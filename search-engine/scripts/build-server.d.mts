/** Where `npm start` runs the service from (`search-engine/dist`). */
export declare const DEFAULT_OUTDIR: string;
/** Bundles the supervisor, the server and the search worker into `outdir`; returns the written files. */
export declare function buildSearchServer(options?: { outdir?: string }): Promise<string[]>;
