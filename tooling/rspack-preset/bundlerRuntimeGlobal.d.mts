/** Global under which the page's federation host provides the bundler runtime to remote containers. */
export declare const BUNDLER_RUNTIME_GLOBAL: '_KHS_FEDERATION_BUNDLER_RUNTIME';
