import { DEFAULT_CALL_URLS, type CallUrls, type IslandMount, type Survey } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { SurveyWidget } from '../components/SurveyWidget.js';
import { surveyTexts } from '../components/surveyTexts.js';
import { readSurveyFromFallback } from '../fallback/readSurveyFromFallback.js';
import { isSurvey, type SurveyServerState } from './articleSurvey.js';
import { isAnswerList, type SurveyIslandProps } from './surveyIslandProps.js';

export type { SurveyIslandProps };

/** A page that names the survey itself: question and answers from the props when complete, else from the fallback markup. */
function namedSurvey(element: HTMLElement, props: SurveyIslandProps & { formHandle: string }): Survey | undefined {
  if (typeof props.question === 'string' && props.question.trim() && isAnswerList(props.answers)) {
    return { formHandle: props.formHandle, question: props.question, answers: props.answers };
  }
  const content = readSurveyFromFallback(element, props.formHandle);
  return content ? { formHandle: props.formHandle, ...content } : undefined;
}

/**
 * The survey of an article whose server render failed (the island holds no survey): asked of this
 * slice's service through the shell (`calls.articleSurvey`). Undefined when the article has none.
 */
async function fetchArticleSurvey(calls: Partial<CallUrls>, articleId: string): Promise<Survey | undefined> {
  const template = calls.articleSurvey ?? DEFAULT_CALL_URLS.articleSurvey;
  const response = await fetch(template.replaceAll('{articleId}', encodeURIComponent(articleId)), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`the survey of article "${articleId}" could not be read (status ${response.status})`);
  const survey: unknown = await response.json();
  if (!isSurvey(survey)) throw new TypeError(`the survey of article "${articleId}" is not a survey`);
  return survey;
}

const mount: IslandMount<SurveyIslandProps> = async (element, props, { config, hydration }) => {
  const rendered = (hydration?.state as Partial<SurveyServerState> | undefined)?.survey;
  let survey: Survey | undefined;
  if (hydration && isSurvey(rendered)) survey = rendered;
  else if (typeof props?.formHandle === 'string' && props.formHandle.length > 0) {
    survey = namedSurvey(element, { ...props, formHandle: props.formHandle });
    if (!survey) throw new TypeError(`Survey "${props.formHandle}" has no question and answers (props or fallback markup)`);
  } else if (typeof props?.articleId === 'string' && props.articleId.length > 0) {
    survey = await fetchArticleSurvey(config.calls, props.articleId);
    // An article without a survey: nothing to show.
    if (!survey) return () => {};
  } else {
    throw new TypeError('Survey needs a string prop "articleId" or "formHandle"');
  }
  // Hydrate only the server's own HTML (with its state); anything else is mounted afresh.
  const hydrate = hydration !== undefined && isSurvey(rendered);
  return mountReactIsland(
    element,
    'mf-survey/Survey',
    <SurveyWidget formHandle={survey.formHandle} question={survey.question} answers={survey.answers} calls={config.calls} texts={surveyTexts(config.i18n)} hydrating={hydrate} />,
    { hydrate },
  );
};

export default mount;
