/** The file descriptor a supervised child gets a held port's socket on (`LISTEN_FD`). */
export const LISTEN_FD: number;

/** A port was taken by another process when it was to be held. */
export class PortInUseError extends Error {
  readonly code: 'EADDRINUSE';
  readonly port: number;
}

/**
 * A port held (listening, answering 503 with `Retry-After`) for a process that is not up yet, whose
 * listening socket that process inherits (supervisor option `heldPort`).
 */
export interface HeldPort {
  port: number;
  host: string;
  /** `http://<host>:<port>`, no trailing slash. */
  url: string;
  /** The listening socket's file descriptor in this process; undefined while none is held (handed over, closed). */
  fd(): number | undefined;
  /** The child listens on its copy: stop accepting here and close this process's copy. */
  handedOver(): void;
  /** The child is gone: listen on the same port again (503 meanwhile). Nothing when still held. */
  reopen(): Promise<void>;
  /** Frees the port for good (any stand-in connection is closed). */
  close(): Promise<void>;
}

/** Holds `port` on `host` (default 0: a free one; host default 127.0.0.1); rejects with `PortInUseError` when taken. */
export function holdPort(port?: number, host?: string): Promise<HeldPort>;
