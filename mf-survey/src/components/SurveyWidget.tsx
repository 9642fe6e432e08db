import { useEffect, useId, useMemo, useRef, type FormEvent } from 'react';
import type { CallUrls, SurveyAnswer } from 'contracts';
import { useIslandReady } from '@khs/react-island/ready';
import { browserSurveyServices } from '../api/browserSurveyServices.js';
import type { SurveyServices } from '../api/surveyServices.js';
import { useSurveyWidget } from '../hooks/useSurveyWidget.js';
import { SurveyResultBar } from './SurveyResultBar.js';
import type { SurveyTexts } from './surveyTexts.js';
import './survey.css';

export interface SurveyWidgetProps {
  formHandle: string;
  question: string;
  /** Answers in display order, each with its position (the value sent and the results key). */
  answers: SurveyAnswer[];
  /** `csrfToken`, `surveySubmit` and `surveyResults` from the page config. */
  calls: Pick<CallUrls, 'csrfToken' | 'surveySubmit' | 'surveyResults'>;
  texts: SurveyTexts;
  /** Browser services. Default: the real `fetch`, local storage and console. */
  services?: SurveyServices;
  /** The widget hydrates server HTML: read this browser's earlier vote after hydration. Default false. */
  hydrating?: boolean;
}

/**
 * A survey: radio answers in a fieldset and a submit button. After voting (or on load, when
 * this browser voted before) the button goes, the radios are disabled and each answer shows its
 * percentage as a bar and a number; a polite live region reads the results out.
 */
export function SurveyWidget({ formHandle, question, answers, calls, texts, services, hydrating = false }: SurveyWidgetProps) {
  const resolvedServices = useMemo(() => services ?? browserSurveyServices(), [services]);
  const { state, select, submit, retryResults } = useSurveyWidget({
    formHandle,
    answers,
    calls,
    services: resolvedServices,
    deferStoredVote: hydrating,
  });
  const idPrefix = useId();
  // Voting needs scripts: disabled in the server HTML until the widget runs in the browser.
  const ready = useIslandReady();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const { phase, results } = state;
  const voted = phase === 'loadingResults' || phase === 'results' || phase === 'resultsFailed';

  // The submit button disappears after voting: keep keyboard focus in the widget.
  useEffect(() => {
    if (state.justSubmitted && voted) statusRef.current?.focus();
  }, [state.justSubmitted, voted]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit();
  };

  const summary =
    results &&
    texts.resultsSummary.replace(
      '{results}',
      answers.map((answer) => `${answer.label} ${results[answer.position] ?? 0}%`).join(', '),
    );

  return (
    <form className="khs-survey khs-survey--interactive" data-phase={phase} aria-busy={phase === 'submitting' || phase === 'loadingResults'} onSubmit={onSubmit}>
      <fieldset disabled={voted || !ready}>
        <legend>{question}</legend>
        {answers.map((answer) => {
          const labelId = `${idPrefix}-answer-${answer.position}`;
          return (
            <div className="khs-survey__answer-row" key={answer.position}>
              <label className="khs-survey__answer">
                <input
                  type="radio"
                  name={`survey-${formHandle}`}
                  value={answer.position}
                  required
                  disabled={voted}
                  checked={state.selected === answer.position}
                  onChange={() => select(answer.position)}
                />
                <span id={labelId}>{answer.label}</span>
              </label>
              {phase === 'results' && results ? (
                <SurveyResultBar labelledBy={labelId} percent={results[answer.position] ?? 0} />
              ) : null}
            </div>
          );
        })}
        {voted ? null : (
          <button
            type="submit"
            className="khs-survey__submit"
            aria-disabled={phase === 'submitting'}
          >
            {phase === 'submitting' ? texts.submitting : texts.submit}
          </button>
        )}
      </fieldset>
      {state.submitFailed && phase === 'answering' ? (
        <p className="khs-survey__error" role="alert">
          {state.retryAt === undefined ? texts.submitFailed : retryText(texts.submitRateLimited, state.retryAt, Date.now())}
        </p>
      ) : null}
      <p className="khs-survey__status" role="status" tabIndex={-1} ref={statusRef}>
        {phase === 'loadingResults' ? texts.resultsLoading : null}
        {phase === 'resultsFailed' ? texts.resultsFailed : null}
        {phase === 'results' && summary ? <span className="khs-survey__visually-hidden">{summary}</span> : null}
      </p>
      {phase === 'resultsFailed' ? (
        <button type="button" className="khs-survey__retry" onClick={retryResults}>
          {texts.resultsRetry}
        </button>
      ) : null}
    </form>
  );
}

/** The rate-limit message with `{wait}` ("40 seconds", "3 minutes") and `{time}` (the local clock time) filled in. */
export function retryText(template: string, retryAt: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', ...(seconds < 60 ? { second: '2-digit' } : {}) }).format(retryAt);
  return template.replace('{wait}', wait).replace('{time}', time);
}
