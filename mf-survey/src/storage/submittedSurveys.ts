import { SUBMITTED_SURVEYS_STORAGE_KEY, readSubmittedSurveys } from 'contracts';

/** Local storage, or `null` when the browser has none (privacy mode, policy). */
export function browserStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * Handles of the surveys this browser submitted. Corrupt or foreign data gives the valid
 * handles only (or none) and the stored value is repaired, so a bad write never breaks a page.
 */
export function readSubmittedSurveyHandles(storage: Storage | null = browserStorage()): string[] {
  if (!storage) return [];
  let raw: string | null;
  try {
    raw = storage.getItem(SUBMITTED_SURVEYS_STORAGE_KEY);
  } catch {
    return [];
  }
  if (raw === null) return [];
  let parsed: unknown;
  let unreadable = false;
  try {
    parsed = JSON.parse(raw);
  } catch {
    unreadable = true;
  }
  const { handles, repaired } = readSubmittedSurveys(parsed);
  if (repaired || unreadable) {
    try {
      storage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, JSON.stringify(handles));
    } catch {
      // Repair is best effort: the cleaned copy is still what we use.
    }
  }
  return handles;
}

/** Whether this browser already submitted the survey. */
export function isSurveySubmitted(formHandle: string, storage: Storage | null = browserStorage()): boolean {
  return readSubmittedSurveyHandles(storage).includes(formHandle);
}

/**
 * Adds the survey to the submitted list (once). Returns false, never throws, when storage is
 * missing or refuses the write.
 */
export function markSurveySubmitted(formHandle: string, storage: Storage | null = browserStorage()): boolean {
  if (!storage) return false;
  const handles = readSubmittedSurveyHandles(storage);
  if (handles.includes(formHandle)) return true;
  try {
    storage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, JSON.stringify([...handles, formHandle]));
    return true;
  } catch {
    return false;
  }
}
