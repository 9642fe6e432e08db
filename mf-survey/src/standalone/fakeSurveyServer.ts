import type { CallUrls, Survey } from 'contracts';
// The survey service's own rule (it imports it from here): one percentage rule for the service and its stand-in.
import { largestRemainderPercentages } from '../results/largestRemainderPercentages.js';

/** A request the fake server received. */
export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface FakeSurveyServerOptions {
  surveys: Survey[];
  calls: Pick<CallUrls, 'csrfToken' | 'surveySubmit' | 'surveyResults'>;
  /** Votes already cast by other visitors: handle -> position -> votes. */
  initialVotes?: Record<string, Record<number, number>>;
  /** Milliseconds every answer takes. Default 0. */
  latencyMs?: number;
}

const TOKEN = 'fake-csrf-token';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The survey service's own rule (largest remainder), so the stand-in answers exactly what the service would. */
function percentages(counts: Record<number, number>, positions: number[]): Record<string, number> {
  return largestRemainderPercentages(Object.fromEntries(positions.map((position) => [position, counts[position] ?? 0])));
}

/**
 * An in-page stand-in for the shell's survey calls (CSRF token, submission, results) as a
 * `fetch` function: one browser, one vote per survey. Used by the standalone page and tests;
 * `failNext` makes the next calls of a kind answer 500 (or throw, for `network`).
 */
export class FakeSurveyServer {
  readonly requests: FakeRequest[] = [];
  readonly votes: Record<string, Record<number, number>>;
  private readonly voted = new Set<string>();
  private readonly failures = { token: 0, submit: 0, results: 0, network: 0 };

  constructor(private readonly options: FakeSurveyServerOptions) {
    this.votes = structuredClone(options.initialVotes ?? {});
  }

  /** Makes the next `count` calls of `kind` fail. */
  failNext(kind: 'token' | 'submit' | 'results' | 'network', count = 1): void {
    this.failures[kind] += count;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      url,
      headers,
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    this.requests.push(request);
    if (this.options.latencyMs) await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs));
    if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    if (this.failures.network > 0) {
      this.failures.network -= 1;
      throw new TypeError('Failed to fetch');
    }
    return this.answer(request);
  };

  private answer(request: FakeRequest): Response {
    const { calls, surveys } = this.options;
    if (request.method === 'GET' && request.url === calls.csrfToken) {
      if (this.failures.token > 0) {
        this.failures.token -= 1;
        return new Response('failed', { status: 500 });
      }
      return new Response(TOKEN, { status: 200, headers: { 'content-type': 'text/plain' } });
    }
    for (const survey of surveys) {
      const handle = encodeURIComponent(survey.formHandle);
      const positions = survey.answers.map((a) => a.position);
      if (request.method === 'POST' && request.url === calls.surveySubmit.replace('{formHandle}', handle)) {
        if (this.failures.submit > 0) {
          this.failures.submit -= 1;
          return json(500, { error: 'Internal server error' });
        }
        if (request.headers['x-csrf-token'] !== TOKEN) return json(403, { error: 'Invalid csrf token' });
        let position: unknown;
        try {
          position = (JSON.parse(request.body ?? '') as { answerPosition?: unknown }).answerPosition;
        } catch {
          return json(400, { error: 'Body is not valid JSON' });
        }
        if (typeof position !== 'number' || !positions.includes(position)) {
          return json(422, { error: 'answerPosition is not an answer of this survey' });
        }
        const counted = !this.voted.has(survey.formHandle);
        if (counted) {
          this.voted.add(survey.formHandle);
          const counts = (this.votes[survey.formHandle] ??= {});
          counts[position] = (counts[position] ?? 0) + 1;
        }
        return json(counted ? 201 : 200, { counted, results: percentages(this.votes[survey.formHandle] ?? {}, positions) });
      }
      if (request.method === 'GET' && request.url === calls.surveyResults.replace('{formHandle}', handle)) {
        if (this.failures.results > 0) {
          this.failures.results -= 1;
          return json(500, { error: 'Internal server error' });
        }
        return json(200, percentages(this.votes[survey.formHandle] ?? {}, positions));
      }
    }
    return json(404, { error: 'Not found' });
  }
}
