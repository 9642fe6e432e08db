// Async boundary: the shared singletons are negotiated before the bootstrap runs.
import('./bootstrap.mjs');
