import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { SUBMITTED_SURVEYS_STORAGE_KEY, type CallUrls, type SurveyAnswer } from 'contracts';
import { loadSurveyResults, type SurveyPercentages } from '../api/loadSurveyResults.js';
import { submitSurveyVote, SurveyVoteRateLimited } from '../api/submitSurveyVote.js';
import type { SurveyServices } from '../api/surveyServices.js';
import { isSurveySubmitted, markSurveySubmitted } from '../storage/submittedSurveys.js';
import { initialSurveyWidgetState, surveyWidgetReducer, type SurveyWidgetState } from './surveyWidgetReducer.js';

export interface UseSurveyWidgetOptions {
  formHandle: string;
  answers: SurveyAnswer[];
  calls: Pick<CallUrls, 'csrfToken' | 'surveySubmit' | 'surveyResults'>;
  services: SurveyServices;
  /**
   * Start as the server rendered (answering) and look at this browser's earlier vote only after
   * hydration, so the first client render matches the server HTML. Default false.
   */
  deferStoredVote?: boolean;
}

export interface SurveyWidgetControls {
  state: SurveyWidgetState;
  select(position: number): void;
  submit(): void;
  retryResults(): void;
}

/**
 * The survey's flow: vote (the page's token, POST), remember the handle locally, show the
 * results the POST answered (no second request). Already-submitted surveys (also when another tab submits) load their results at once. Requests still running when
 * the widget unmounts are aborted and their outcome ignored.
 */
export function useSurveyWidget({ formHandle, answers, calls, services, deferStoredVote = false }: UseSurveyWidgetOptions): SurveyWidgetControls {
  const [state, dispatch] = useReducer(surveyWidgetReducer, undefined, () =>
    initialSurveyWidgetState(!deferStoredVote && isSurveySubmitted(formHandle, services.storage)),
  );
  const abort = useRef<AbortController | null>(null);
  // Only the first render's value matters: it decides what the mount effect checks.
  const [deferStoredVoteAtMount] = useState(deferStoredVote);
  // Latest values for the async flow without re-creating the callbacks.
  const latest = useRef({ formHandle, answers, calls, services, state });
  latest.current = { formHandle, answers, calls, services, state };

  const fetchResults = useCallback(async () => {
    const { formHandle, answers, calls, services } = latest.current;
    const controller = new AbortController();
    abort.current = controller;
    try {
      const results = await loadSurveyResults(services.fetch, calls, formHandle, answers, controller.signal);
      if (!controller.signal.aborted) dispatch({ type: 'resultsLoaded', results });
    } catch (error) {
      if (controller.signal.aborted) return;
      services.logger.error(`[mf-survey] results of "${formHandle}" could not be loaded`, error);
      dispatch({ type: 'resultsFailed' });
    }
  }, []);

  useEffect(() => {
    const { formHandle, services, state } = latest.current;
    if (state.phase === 'answering' && deferStoredVoteAtMount && isSurveySubmitted(formHandle, services.storage)) {
      dispatch({ type: 'submittedElsewhere' });
      void fetchResults();
    } else if (state.phase === 'loadingResults') {
      void fetchResults();
    }
    return () => abort.current?.abort();
    // Runs once per mount: both dependencies keep their first value.
  }, [fetchResults, deferStoredVoteAtMount]);

  // Another tab voted on this survey: follow it (the storage event fires in other tabs only).
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== SUBMITTED_SURVEYS_STORAGE_KEY) return;
      const { formHandle, services, state } = latest.current;
      if (state.phase !== 'answering' || !isSurveySubmitted(formHandle, services.storage)) return;
      dispatch({ type: 'submittedElsewhere' });
      void fetchResults();
    };
    globalThis.addEventListener?.('storage', onStorage);
    return () => globalThis.removeEventListener?.('storage', onStorage);
  }, [fetchResults]);

  const submit = useCallback(() => {
    const { formHandle, answers, calls, services, state } = latest.current;
    if (state.phase !== 'answering' || state.selected === undefined) return;
    const position = state.selected;
    dispatch({ type: 'submit' });
    const controller = new AbortController();
    abort.current = controller;
    void (async () => {
      let results: SurveyPercentages;
      try {
        results = await submitSurveyVote(services.fetch, calls, formHandle, position, answers, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        services.logger.error(`[mf-survey] vote on "${formHandle}" could not be sent`, error);
        dispatch(error instanceof SurveyVoteRateLimited ? { type: 'submitFailed', retryAt: error.retryAt } : { type: 'submitFailed' });
        return;
      }
      if (controller.signal.aborted) return;
      // The vote counted on the server even if the browser cannot remember it locally.
      if (!markSurveySubmitted(formHandle, services.storage)) {
        services.logger.error(`[mf-survey] "${formHandle}" could not be remembered in local storage`);
      }
      dispatch({ type: 'submitted' });
      dispatch({ type: 'resultsLoaded', results });
    })();
  }, []);

  const retryResults = useCallback(() => {
    dispatch({ type: 'loadResults' });
    void fetchResults();
  }, [fetchResults]);

  const select = useCallback((position: number) => dispatch({ type: 'select', position }), []);

  return { state, select, submit, retryResults };
}
