// Async boundary: shared singletons (React, contracts) are negotiated before any import runs.
import('./standalone/bootstrap.js');
