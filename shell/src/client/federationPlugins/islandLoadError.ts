// The stable code and stage of an island load failure, however the federation runtime wrapped it.
// Our plugins throw `IslandLoadError`s whose message starts with the code; the runtime copies the
// message into its own errors (`RUNTIME-003 … Original Error Message: KHS-ISLAND-003 …`), so the
// code survives. Errors the runtime raises itself are mapped from its own codes.
import { isBrowserIslandStage, isIslandErrorCode, type BrowserIslandStage, type IslandErrorCode } from 'contracts';

/** A load failure raised by one of the shell's federation plugins. */
export class IslandLoadError extends Error {
  constructor(
    readonly code: IslandErrorCode,
    readonly stage: BrowserIslandStage,
    message: string,
    options?: {
      cause?: unknown;
      /** Worth another try (a network error, HTTP 5xx, 408 or 429). Default false. */
      transient?: boolean;
      /** HTTP status of the answer, when there was one. */
      status?: number;
    },
  ) {
    super(`${code} [${stage}] ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'IslandLoadError';
    this.transient = options?.transient ?? false;
    this.status = options?.status;
  }

  readonly transient: boolean;
  readonly status: number | undefined;
}

/** Stable code and stage of a failure. */
export interface IslandFailureKind {
  code: IslandErrorCode;
  stage: BrowserIslandStage;
}

function messagesOf(error: unknown): string[] {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    messages.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return messages;
}

/** The code and stage of a failed `loadRemote` (or of anything thrown while loading a remote). */
export function islandLoadFailure(error: unknown): IslandFailureKind {
  if (error instanceof IslandLoadError) return { code: error.code, stage: error.stage };
  const text = messagesOf(error).join('\n');
  const ours = /(KHS-ISLAND-\d{3}) \[([a-z]+)\]/.exec(text);
  if (ours && isIslandErrorCode(ours[1]) && isBrowserIslandStage(ours[2])) {
    return { code: ours[1], stage: ours[2] };
  }
  // The federation runtime's own codes (@module-federation/error-codes).
  if (/RUNTIME-(003|004|007|013)\b/.test(text)) return { code: 'KHS-ISLAND-001', stage: 'manifest' };
  if (/RUNTIME-014\b/.test(text) || /no default mount export/.test(text)) return { code: 'KHS-ISLAND-006', stage: 'expose' };
  if (/RUNTIME-008\b/.test(text) && /timed out/.test(text)) return { code: 'KHS-ISLAND-003', stage: 'entry' };
  return { code: 'KHS-ISLAND-002', stage: 'entry' };
}
