import type { Survey, SurveyResults } from 'contracts';
import type { SurveyRepository } from './storage/surveyRepository.js';
// The slice's one percentage rule lives with the browser code, so the remote's standalone stand-in (built from src/ alone) uses it too.
import { largestRemainderPercentages } from '../../src/results/largestRemainderPercentages.js';

/**
 * A survey's results: every answer position of the survey with its integer percentage.
 * Votes stored for positions the survey no longer has are ignored.
 */
export async function surveyResults(survey: Survey, surveys: SurveyRepository): Promise<SurveyResults> {
  const votes = await surveys.countVotes(survey.formHandle);
  const counts: Record<number, number> = {};
  for (const answer of survey.answers) counts[answer.position] = votes[answer.position] ?? 0;
  return largestRemainderPercentages(counts);
}
