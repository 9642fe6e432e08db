import type { SurveyAnswer } from 'contracts';

/**
 * Island props the server renders into `data-props`. `question` and `answers` are optional:
 * without them they are read from the server's fallback markup inside the island.
 */
export interface SurveyIslandProps {
  formHandle: string;
  question?: string;
  answers?: SurveyAnswer[];
}

export function isAnswerList(value: unknown): value is SurveyAnswer[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (answer) =>
        typeof answer === 'object' &&
        answer !== null &&
        Number.isInteger((answer as SurveyAnswer).position) &&
        typeof (answer as SurveyAnswer).label === 'string',
    )
  );
}
