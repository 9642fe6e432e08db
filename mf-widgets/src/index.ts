// Async boundary: shared singletons (contracts) are negotiated before any import runs.
import('./standalone/bootstrap.js');
