import { describe, expect, it } from 'vitest';
import { IslandLoadError, islandLoadFailure } from './islandLoadError.js';

describe('islandLoadFailure', () => {
  it('reads our code and stage back out of the message the federation runtime wrapped it in', () => {
    const ours = new IslandLoadError('KHS-ISLAND-003', 'manifest', 'no answer within 8000 ms');
    const wrapped = new Error(`[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003\nOriginal Error Message:\n ${String(ours)}`);
    expect(islandLoadFailure(ours)).toEqual({ code: 'KHS-ISLAND-003', stage: 'manifest' });
    expect(islandLoadFailure(wrapped)).toEqual({ code: 'KHS-ISLAND-003', stage: 'manifest' });
    expect(islandLoadFailure(new Error('outer', { cause: ours }))).toEqual({ code: 'KHS-ISLAND-003', stage: 'manifest' });
  });

  it.each([
    ['[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003', 'KHS-ISLAND-001', 'manifest'],
    ['The manifest is not a valid Module Federation manifest. #RUNTIME-013', 'KHS-ISLAND-001', 'manifest'],
    ['Failed to load script resources. #RUNTIME-008 ScriptNetworkError: Failed to load script', 'KHS-ISLAND-002', 'entry'],
    ['Failed to load script resources. #RUNTIME-008 ScriptNetworkError: Script "x" timed out.', 'KHS-ISLAND-003', 'entry'],
    ['Failed to get remoteEntry exports. #RUNTIME-001', 'KHS-ISLAND-002', 'entry'],
    ['The remote does not expose the requested module. #RUNTIME-014', 'KHS-ISLAND-006', 'expose'],
    ['ChunkLoadError: Loading chunk 579 failed.', 'KHS-ISLAND-002', 'entry'],
  ])('maps the runtime error %j to %s (%s)', (message, code, stage) => {
    expect(islandLoadFailure(new Error(message))).toEqual({ code, stage });
  });
});
