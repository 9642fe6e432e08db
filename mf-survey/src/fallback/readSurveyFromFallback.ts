import type { SurveyAnswer } from 'contracts';

/** Question and answers of a survey, as the widget needs them. */
export interface SurveyContent {
  question: string;
  answers: SurveyAnswer[];
}

/**
 * Reads the question and answers from the server-rendered markup inside the island
 * (`<form class="khs-survey"><fieldset><legend>…</legend><label><input type="radio"
 * name="survey-<handle>" value="<position>"> label</label>…`). Undefined when the markup
 * does not hold a usable survey.
 */
export function readSurveyFromFallback(element: HTMLElement, formHandle: string): SurveyContent | undefined {
  const form = element.querySelector('form.khs-survey');
  const question = form?.querySelector('legend')?.textContent?.trim();
  if (!form || !question) return undefined;
  const answers: SurveyAnswer[] = [];
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type="radio"]')) {
    if (input.name !== `survey-${formHandle}`) continue;
    const position = Number(input.value);
    const label = (input.closest('label')?.textContent ?? '').trim();
    if (!Number.isInteger(position) || !label) return undefined;
    answers.push({ position, label });
  }
  return answers.length > 0 ? { question, answers } : undefined;
}
