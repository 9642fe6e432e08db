// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { examplePageConfig, SUBMITTED_SURVEYS_STORAGE_KEY, type Survey } from 'contracts';
import type { SurveyServices } from '../api/surveyServices.js';
import { FakeSurveyServer } from '../standalone/fakeSurveyServer.js';
import { retryAtOf } from '../api/submitSurveyVote.js';
import { retryText, SurveyWidget } from './SurveyWidget.js';
import { DEFAULT_SURVEY_TEXTS, surveyTexts } from './surveyTexts.js';

const config = examplePageConfig();
const texts = surveyTexts(config.i18n);
const SURVEY: Survey = {
  formHandle: 'coffee',
  question: 'How do you take your coffee?',
  answers: [
    { position: 1, label: 'Black' },
    { position: 2, label: 'With milk' },
    { position: 3, label: 'Not at all' },
  ],
};

function setup(options: { initialVotes?: Record<number, number>; failResults?: boolean; rateLimitedVotes?: { count: number; retryAfter: string } } = {}) {
  const server = new FakeSurveyServer({
    surveys: [SURVEY],
    calls: config.calls,
    initialVotes: options.initialVotes ? { coffee: options.initialVotes } : {},
  });
  if (options.failResults) server.failNext('results');
  const logged: unknown[][] = [];
  let refusals = options.rateLimitedVotes?.count ?? 0;
  // The edge's answer to a vote over the address's rate: 429 JSON with Retry-After, before the service.
  const fetchWithEdge: typeof fetch = async (input, init) => {
    if (init?.method === 'POST' && String(input).includes('/submissions') && refusals > 0) {
      refusals -= 1;
      return new Response(JSON.stringify({ error: 'Too many requests', code: 'rate-limited' }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': options.rateLimitedVotes!.retryAfter } });
    }
    return server.fetch(input, init);
  };
  const services: SurveyServices = {
    fetch: fetchWithEdge,
    storage: localStorage,
    logger: { error: (...args: unknown[]) => void logged.push(args) },
  };
  const view = render(
    <SurveyWidget
      formHandle={SURVEY.formHandle}
      question={SURVEY.question}
      answers={SURVEY.answers}
      calls={config.calls}
      texts={texts}
      services={services}
    />,
  );
  return { server, logged, view };
}

const storedHandles = () => JSON.parse(localStorage.getItem(SUBMITTED_SURVEYS_STORAGE_KEY) ?? 'null');
const radios = () => screen.getAllByRole('radio') as HTMLInputElement[];
const meterValues = () =>
  Object.fromEntries(
    screen.getAllByRole('meter').map((meter) => [meter.getAttribute('aria-labelledby') && document.getElementById(meter.getAttribute('aria-labelledby')!)?.textContent, meter.getAttribute('aria-valuenow')]),
  );

async function vote(label: string) {
  fireEvent.click(screen.getByRole('radio', { name: label }));
  fireEvent.click(screen.getByRole('button', { name: texts.submit }));
  await screen.findAllByRole('meter');
}

describe('SurveyWidget', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('shows the question as the legend of a radio group and a submit button', () => {
    setup();
    // The legend names the group, and the answers are inside it.
    expect(within(screen.getByRole('group', { name: SURVEY.question })).getAllByRole('radio')).toEqual(radios());
    expect(radios().map((radio) => radio.value)).toEqual(['1', '2', '3']);
    expect((screen.getByRole('radio', { name: 'With milk' }) as HTMLInputElement).checked).toBe(false);
    expect(radios().every((radio) => !radio.disabled)).toBe(true);
    expect(screen.getByRole('button', { name: 'Vote' }).getAttribute('aria-disabled')).toBe('false');
    expect(screen.queryAllByRole('meter')).toHaveLength(0);
  });

  it('votes with a CSRF token, remembers the survey, hides the button, disables the radios and shows percentages', async () => {
    const { server } = setup({ initialVotes: { 1: 1, 3: 2 } });
    await vote('With milk');

    // Two round trips: the page's token and the POST, whose answer holds the results shown (no results GET).
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /actions/blitz/csrf/token', 'POST /api/surveys/coffee/submissions']);
    const submitCall = server.requests[1];
    expect(submitCall).toMatchObject({ body: '{"answerPosition":2}' });
    expect(submitCall?.headers['x-csrf-token']).toBe('fake-csrf-token');
    expect(submitCall?.headers['content-type']).toBe('application/json');
    expect(submitCall?.headers.accept).toBe('application/json');

    expect(storedHandles()).toEqual(['coffee']);
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
    expect(radios().every((radio) => radio.disabled)).toBe(true);
    expect((screen.getByRole('radio', { name: 'With milk' }) as HTMLInputElement).checked).toBe(true);
    // 1, 1, 2 votes of 4 -> 25 / 25 / 50
    expect(meterValues()).toEqual({ Black: '25', 'With milk': '25', 'Not at all': '50' });
    expect(screen.getAllByRole('meter').map((m) => m.getAttribute('aria-valuetext'))).toEqual(['25%', '25%', '50%']);
    // The visible numbers beside the bars, hidden from assistive technology (the meters say them).
    expect([...document.querySelectorAll('.khs-survey__percent')].map((number) => [number.textContent, number.getAttribute('aria-hidden')])).toEqual([
      ['25%', 'true'],
      ['25%', 'true'],
      ['50%', 'true'],
    ]);
    expect(screen.getByRole('status').textContent).toBe('Results: Black 25%, With milk 25%, Not at all 50%.');
    // Focus moves in an effect after the results render (one commit later on a loaded machine).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('status')));
  });

  it('shows the results at once when this browser already voted', async () => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, JSON.stringify(['other', 'coffee']));
    const { server } = setup({ initialVotes: { 1: 3, 2: 1 } });
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
    expect(radios().every((radio) => radio.disabled)).toBe(true);
    expect(screen.getByRole('status').textContent).toBe(DEFAULT_SURVEY_TEXTS.resultsLoading);
    await screen.findAllByRole('meter');
    expect(meterValues()).toEqual({ Black: '75', 'With milk': '25', 'Not at all': '0' });
    expect(server.requests.map((r) => r.method)).toEqual(['GET']);
    expect(document.activeElement).not.toBe(screen.getByRole('status'));
  });

  it('shows the results when another tab of this browser votes on the survey', async () => {
    setup({ initialVotes: { 2: 1 } });
    act(() => {
      localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, JSON.stringify(['unrelated']));
      window.dispatchEvent(new StorageEvent('storage', { key: SUBMITTED_SURVEYS_STORAGE_KEY }));
    });
    expect(screen.getByRole('button', { name: 'Vote' }).getAttribute('aria-disabled')).toBe('false');
    act(() => {
      localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, JSON.stringify(['unrelated', 'coffee']));
      window.dispatchEvent(new StorageEvent('storage', { key: SUBMITTED_SURVEYS_STORAGE_KEY }));
    });
    await screen.findAllByRole('meter');
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
    expect(meterValues()).toEqual({ Black: '0', 'With milk': '100', 'Not at all': '0' });
  });

  it('a vote refused for the address\'s rate (429) says when to try again, from Retry-After, and the retry then counts', async () => {
    const { logged } = setup({ rateLimitedVotes: { count: 1, retryAfter: '150' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Many votes came from your network just now, so yours was not counted\. Please try again in 3 minutes \(at \d{1,2}:\d{2}( [AP]M)?\)\.$/);
    expect(localStorage.getItem(SUBMITTED_SURVEYS_STORAGE_KEY)).toBeNull();
    expect(logged).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    await screen.findAllByRole('meter');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    [40_000, 'in 40 seconds'],
    [1_000, 'in 1 second'],
    [60_000, 'in 1 minute'],
    [61_000, 'in 2 minutes'],
  ])('the retry wait %i ms reads "%s"', (ms, words) => {
    expect(retryText('{wait}', Date.UTC(2026, 0, 1, 9, 0, 0) + ms, Date.UTC(2026, 0, 1, 9, 0, 0))).toBe(words.slice(3));
  });

  it('Retry-After as seconds or as an HTTP date; unreadable: a minute', () => {
    const now = Date.UTC(2026, 0, 1, 9, 0, 0);
    expect(retryAtOf('120', now)).toBe(now + 120_000);
    expect(retryAtOf('Thu, 01 Jan 2026 09:05:00 GMT', now)).toBe(now + 300_000);
    expect(retryAtOf('soon', now)).toBe(now + 60_000);
    expect(retryAtOf(null, now)).toBe(now + 60_000);
  });

  it('repairs a garbage submitted list and shows the survey unanswered', () => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, '{"coffee": true');
    setup();
    expect(screen.getByRole('button', { name: 'Vote' }).getAttribute('aria-disabled')).toBe('false');
    expect(storedHandles()).toEqual([]);
  });

  it.each([
    ['the token call fails', 'token'],
    ['the submission answers 500', 'submit'],
    ['the network is down', 'network'],
  ] as const)('shows an error, stores nothing and lets the visitor retry when %s', async (_case, kind) => {
    const { server, logged } = setup();
    server.failNext(kind);
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));

    expect((await screen.findByRole('alert')).textContent).toBe(DEFAULT_SURVEY_TEXTS.submitFailed);
    expect(localStorage.getItem(SUBMITTED_SURVEYS_STORAGE_KEY)).toBeNull();
    expect(radios().every((radio) => !radio.disabled)).toBe(true);
    expect((screen.getByRole('radio', { name: 'Black' }) as HTMLInputElement).checked).toBe(true);
    expect(logged).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    await screen.findAllByRole('meter');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(storedHandles()).toEqual(['coffee']);
    expect(meterValues()).toEqual({ Black: '100', 'With milk': '0', 'Not at all': '0' });
  });

  it('sends nothing without a chosen answer', () => {
    const { server } = setup();
    fireEvent.submit(screen.getByRole('button', { name: 'Vote' }).closest('form')!);
    expect(server.requests).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Vote' }).getAttribute('aria-disabled')).toBe('false');
  });

  it('sends one vote however often the button is pressed while sending', async () => {
    const { server } = setup();
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    const button = screen.getByRole('button', { name: 'Vote' });
    fireEvent.click(button);
    expect(button.textContent).toBe(DEFAULT_SURVEY_TEXTS.submitting);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button);
    fireEvent.click(button);
    await screen.findAllByRole('meter');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('keeps an earlier vote remembered when its results fail to load, and loads them on retry', async () => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, '["coffee"]');
    const { logged } = setup({ initialVotes: { 3: 1 }, failResults: true });
    const retry = await screen.findByRole('button', { name: DEFAULT_SURVEY_TEXTS.resultsRetry });
    expect(screen.getByRole('status').textContent).toBe(DEFAULT_SURVEY_TEXTS.resultsFailed);
    expect(storedHandles()).toEqual(['coffee']);
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
    expect(logged).toHaveLength(1);

    fireEvent.click(retry);
    await screen.findAllByRole('meter');
    expect(meterValues()).toEqual({ Black: '0', 'With milk': '0', 'Not at all': '100' });
  });

  it('takes the results from the vote\'s answer: a vote whose answer lacks them is a failed vote, nothing remembered', async () => {
    const services: SurveyServices = {
      fetch: async (input) => (String(input).endsWith('/token') ? new Response('t') : new Response('{"counted":true}', { status: 201 })),
      storage: localStorage,
      logger: { error: () => undefined },
    };
    render(<SurveyWidget formHandle="coffee" question={SURVEY.question} answers={SURVEY.answers} calls={config.calls} texts={texts} services={services} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect((await screen.findByRole('alert')).textContent).toBe(DEFAULT_SURVEY_TEXTS.submitFailed);
    expect(screen.queryAllByRole('meter')).toHaveLength(0);
    expect(storedHandles()).toBeNull();
  });

  it('treats a results body without every answer as a failure', async () => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, '["coffee"]');
    const services: SurveyServices = {
      fetch: async () => new Response('{"1": 50, "2": 50}', { status: 200 }),
      storage: localStorage,
      logger: { error: () => undefined },
    };
    render(
      <SurveyWidget formHandle="coffee" question={SURVEY.question} answers={SURVEY.answers} calls={config.calls} texts={texts} services={services} />,
    );
    await screen.findByRole('button', { name: DEFAULT_SURVEY_TEXTS.resultsRetry });
    expect(screen.getByRole('status').textContent).toBe(DEFAULT_SURVEY_TEXTS.resultsFailed);
    expect(screen.queryAllByRole('meter')).toHaveLength(0);
  });

  it('still shows results when local storage refuses to remember the vote', async () => {
    const server = new FakeSurveyServer({ surveys: [SURVEY], calls: config.calls });
    const logged: unknown[] = [];
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    } as unknown as Storage;
    render(
      <SurveyWidget
        formHandle="coffee"
        question={SURVEY.question}
        answers={SURVEY.answers}
        calls={config.calls}
        texts={texts}
        services={{ fetch: server.fetch, storage: refusing, logger: { error: (m: unknown) => void logged.push(m) } }}
      />,
    );
    await vote('Black');
    expect(screen.getByRole('status').textContent).toBe('Results: Black 100%, With milk 0%, Not at all 0%.');
    expect(logged).toHaveLength(1);
  });

  it('encodes the form handle in the call URLs', async () => {
    const survey = { ...SURVEY, formHandle: 'a b/c' };
    const server = new FakeSurveyServer({ surveys: [survey], calls: config.calls });
    render(
      <SurveyWidget
        formHandle={survey.formHandle}
        question={survey.question}
        answers={survey.answers}
        calls={config.calls}
        texts={texts}
        services={{ fetch: server.fetch, storage: localStorage, logger: console }}
      />,
    );
    await vote('Black');
    expect(server.requests[1]?.url).toBe('/api/surveys/a%20b%2Fc/submissions');
  });
});
