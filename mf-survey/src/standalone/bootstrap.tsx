// Standalone page of the remote: the team develops and demos the survey without the shell.
// Calls go to an in-page fake server, so voting, results and failures work offline.
import { examplePageConfig, getPageBus, SUBMITTED_SURVEYS_STORAGE_KEY, type IslandContext, type Survey } from 'contracts';
import mountSurvey from '../islands/Survey.js';
import { FakeSurveyServer } from './fakeSurveyServer.js';

const config = examplePageConfig();
const SURVEYS: Survey[] = [
  {
    formHandle: 'leadership-trust',
    question: 'What builds your trust in a manager the most?',
    answers: [
      { position: 1, label: 'Keeping promises, even small ones' },
      { position: 2, label: 'Honesty when the news is bad' },
      { position: 3, label: 'Standing up for the team' },
      { position: 4, label: 'Sharing credit generously' },
    ],
  },
  {
    formHandle: 'remote-work-days',
    question: 'How many days per week do you work remotely?',
    answers: [
      { position: 1, label: 'None' },
      { position: 2, label: 'One or two days' },
      { position: 3, label: 'Three or four days' },
      { position: 4, label: 'Fully remote' },
    ],
  },
];

const server = new FakeSurveyServer({
  surveys: SURVEYS,
  calls: config.calls,
  initialVotes: { 'leadership-trust': { 1: 12, 2: 9, 3: 5, 4: 3 }, 'remote-work-days': { 1: 4, 2: 10, 3: 7, 4: 2 } },
  latencyMs: 400,
});
// The islands call the global fetch: route the survey calls to the fake server.
globalThis.fetch = server.fetch;

const context: IslandContext = {
  bus: getPageBus(),
  config,
  getConsent: () => ({ insights: false, tracking: false }),
};

const byId = (id: string) => document.getElementById(id) as HTMLElement;
const [first] = SURVEYS;
if (first) mountSurvey(byId('survey-from-props'), { formHandle: first.formHandle, question: first.question, answers: first.answers }, context);
mountSurvey(byId('survey-from-fallback'), { formHandle: 'remote-work-days' }, context);

byId('reset-surveys').addEventListener('click', () => {
  localStorage.removeItem(SUBMITTED_SURVEYS_STORAGE_KEY);
  location.reload();
});
