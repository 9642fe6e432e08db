import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import type { SurveyServices } from '../api/surveyServices.js';
import { SurveyWidget } from '../components/SurveyWidget.js';
import { surveyTexts } from '../components/surveyTexts.js';
import { isAnswerList, type SurveyIslandProps } from './surveyIslandProps.js';
import type { SurveyServerState } from './articleSurvey.js';
import { surveyServerProps } from './surveyServerProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/** On the server nobody has voted yet: the browser looks at its own vote after hydration. */
const serverServices: SurveyServices = {
  fetch: () => Promise.reject(new Error('the survey calls nothing on the server')),
  storage: null,
  logger: console,
};

/** The survey of the page's article, read by this slice (its slot gives the article's id). */
export const serverProps = surveyServerProps;

/**
 * Server render of the survey: question, answers and the submit button (results only in the
 * browser). Its state hands the survey to the browser, which hydrates the same one.
 */
export const render: IslandRender<SurveyIslandProps> = async (props, { config }) => {
  if (typeof props?.formHandle !== 'string' || props.formHandle.length === 0) {
    throw new TypeError('Survey needs a string prop "formHandle"');
  }
  if (typeof props.question !== 'string' || !props.question.trim() || !isAnswerList(props.answers)) {
    throw new TypeError(`Survey "${props.formHandle}" needs "question" and "answers" props to render on the server`);
  }
  const state: SurveyServerState = { survey: { formHandle: props.formHandle, question: props.question, answers: props.answers } };
  return renderReactIsland(
    'mf-survey/Survey',
    <SurveyWidget
      formHandle={props.formHandle}
      question={props.question}
      answers={props.answers}
      calls={config.calls}
      texts={surveyTexts(config.i18n)}
      services={serverServices}
      hydrating
    />,
    state,
  );
};
