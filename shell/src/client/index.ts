// Async boundary: the shared singletons are negotiated before the runtime's imports run.
import('./bootstrap.js');
