import type { SurveyPercentages } from '../api/loadSurveyResults.js';

/**
 * Where the widget is:
 * - `answering`: radios and submit button (`submitFailed` after a failed attempt);
 * - `submitting`: the vote is on its way;
 * - `loadingResults` / `results` / `resultsFailed`: submitted; radios disabled, no button.
 */
export type SurveyPhase = 'answering' | 'submitting' | 'loadingResults' | 'results' | 'resultsFailed';

export interface SurveyWidgetState {
  phase: SurveyPhase;
  /** The answer the visitor picked (kept checked after voting). */
  selected: number | undefined;
  submitFailed: boolean;
  /** After a vote refused for the address's rate: when to try again (epoch ms). */
  retryAt: number | undefined;
  results: SurveyPercentages | undefined;
  /** True when results follow the visitor's own submit (focus moves to them). */
  justSubmitted: boolean;
}

export type SurveyWidgetAction =
  | { type: 'select'; position: number }
  | { type: 'submit' }
  | { type: 'submitFailed'; retryAt?: number }
  | { type: 'submitted' }
  | { type: 'loadResults' }
  | { type: 'submittedElsewhere' }
  | { type: 'resultsLoaded'; results: SurveyPercentages }
  | { type: 'resultsFailed' };

/** Start state: results at once when this browser already submitted the survey. */
export function initialSurveyWidgetState(alreadySubmitted: boolean): SurveyWidgetState {
  return {
    phase: alreadySubmitted ? 'loadingResults' : 'answering',
    selected: undefined,
    submitFailed: false,
    retryAt: undefined,
    results: undefined,
    justSubmitted: false,
  };
}

export function surveyWidgetReducer(state: SurveyWidgetState, action: SurveyWidgetAction): SurveyWidgetState {
  switch (action.type) {
    case 'select':
      return state.phase === 'answering' ? { ...state, selected: action.position } : state;
    case 'submit':
      return state.phase === 'answering' && state.selected !== undefined
        ? { ...state, phase: 'submitting', submitFailed: false, retryAt: undefined }
        : state;
    case 'submitFailed':
      return { ...state, phase: 'answering', submitFailed: true, retryAt: action.retryAt };
    case 'submitted':
      return { ...state, phase: 'loadingResults', justSubmitted: true };
    case 'submittedElsewhere':
      // Another tab of this browser voted: show results, unless a vote is under way here.
      return state.phase === 'answering' ? { ...state, phase: 'loadingResults', submitFailed: false } : state;
    case 'loadResults':
      return { ...state, phase: 'loadingResults' };
    case 'resultsLoaded':
      return { ...state, phase: 'results', results: action.results };
    case 'resultsFailed':
      return { ...state, phase: 'resultsFailed' };
  }
}
