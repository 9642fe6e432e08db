import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { SurveyWidget } from '../components/SurveyWidget.js';
import { surveyTexts } from '../components/surveyTexts.js';
import { readSurveyFromFallback, type SurveyContent } from '../fallback/readSurveyFromFallback.js';
import { isAnswerList, type SurveyIslandProps } from './surveyIslandProps.js';

export type { SurveyIslandProps };

/** Question and answers from the props when complete, else from the fallback markup. */
function surveyContent(element: HTMLElement, props: SurveyIslandProps): SurveyContent | undefined {
  if (typeof props.question === 'string' && props.question.trim() && isAnswerList(props.answers)) {
    return { question: props.question, answers: props.answers };
  }
  return readSurveyFromFallback(element, props.formHandle);
}

const mount: IslandMount<SurveyIslandProps> = (element, props, { config, hydration }) => {
  if (typeof props?.formHandle !== 'string' || props.formHandle.length === 0) {
    throw new TypeError('Survey needs a string prop "formHandle"');
  }
  const content = surveyContent(element, props);
  if (!content) {
    throw new TypeError(`Survey "${props.formHandle}" has no question and answers (props or fallback markup)`);
  }
  return mountReactIsland(
    element,
    'mf-survey/Survey',
    <SurveyWidget
      formHandle={props.formHandle}
      question={content.question}
      answers={content.answers}
      calls={config.calls}
      texts={surveyTexts(config.i18n)}
      hydrating={hydration !== undefined}
    />,
    { hydrate: hydration !== undefined },
  );
};

export default mount;
