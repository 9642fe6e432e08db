import { SERVER_ISLAND_STAGE_CODES, type IslandErrorCode, type ServerIslandStage } from 'contracts';

/** A failure of one remote on the server, with the stage it happened in and its stable code. */
export class ServerIslandError extends Error {
  readonly code: IslandErrorCode;

  constructor(
    readonly remote: string,
    readonly stage: ServerIslandStage,
    message: string,
    options?: { cause?: unknown; code?: IslandErrorCode },
  ) {
    super(message, options);
    this.name = 'ServerIslandError';
    this.code = options?.code ?? SERVER_ISLAND_STAGE_CODES[stage];
  }
}
