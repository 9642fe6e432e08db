// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { examplePageConfig, getPageBus, ISLAND_HYDRATION_MISMATCH_EVENT, type IslandContext, type Unmount } from 'contracts';
import mountSurvey from './Survey.js';
import { render as renderSurvey } from './Survey.server.js';

const context: IslandContext = {
  bus: getPageBus(),
  config: examplePageConfig(),
  getConsent: () => ({ insights: false, tracking: false }),
};

// The server markup this remote renders inside the island (src/islands/Survey.server.tsx).
const FALLBACK = `<form class="khs-survey" aria-disabled="true"><fieldset disabled><legend>Which day suits you?</legend>
  <label class="khs-survey__answer"><input type="radio" name="survey-days" value="1"> Monday</label>
  <label class="khs-survey__answer"><input type="radio" name="survey-days" value="2"> Friday</label>
  <button type="submit">Vote</button></fieldset></form>`;

describe('mf-survey/Survey island', () => {
  let element: HTMLElement;
  let unmount: Unmount | undefined;
  beforeEach(() => {
    localStorage.clear();
    element = document.createElement('div');
    element.innerHTML = FALLBACK;
    document.body.append(element);
  });
  afterEach(() => {
    act(() => unmount?.());
    element.remove();
  });

  it('reads question and answers from the fallback when the props carry only the handle', async () => {
    // The mount settles once React committed, after act flushed it: awaited outside act.
    let mounting: ReturnType<typeof mountSurvey> | undefined;
    await act(async () => {
      mounting = mountSurvey(element, { formHandle: 'days' }, context);
    });
    unmount = (await mounting) as Unmount;
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    expect(within(screen.getByRole('group', { name: 'Which day suits you?' })).getAllByRole('radio')).toEqual(radios);
    expect(radios.map((radio) => [radio.value, radio.disabled])).toEqual([
      ['1', false],
      ['2', false],
    ]);
    expect(element.querySelector('form.khs-survey--interactive')).not.toBeNull();
  });

  it('prefers question and answers from the props', async () => {
    let mounting: ReturnType<typeof mountSurvey> | undefined;
    await act(async () => {
      mounting = mountSurvey(element, { formHandle: 'days', question: 'Pick a day', answers: [{ position: 7, label: 'Sunday' }] }, context);
    });
    unmount = (await mounting) as Unmount;
    expect(within(screen.getByRole('group', { name: 'Pick a day' })).getAllByRole('radio')).toEqual([screen.getByRole('radio', { name: 'Sunday' })]);
    expect((screen.getByRole('radio', { name: 'Sunday' }) as HTMLInputElement).value).toBe('7');
  });

  it('refuses to mount without a handle or without a survey, keeping the fallback', async () => {
    const before = element.innerHTML;
    await expect(mountSurvey(element, {} as never, context)).rejects.toThrow(TypeError);
    await expect(mountSurvey(element, { formHandle: 'other-survey' }, context)).rejects.toThrow(TypeError);
    expect(element.innerHTML).toBe(before);
  });

  it("hydrates, without a mismatch, the survey its server render handed over in its state (the slot's props carry only the article's id)", async () => {
    const survey = { formHandle: 'days', question: 'Which day suits you?', answers: [{ position: 1, label: 'Monday' }, { position: 2, label: 'Friday' }] };
    const controller = new AbortController();
    const rendered = await renderSurvey({ articleId: 'a1', ...survey }, { config: context.config, url: '/articles/a1', signal: controller.signal });
    expect(rendered.state).toEqual({ survey });
    element.innerHTML = rendered.html;
    const mismatches: Event[] = [];
    element.addEventListener(ISLAND_HYDRATION_MISMATCH_EVENT, (event) => mismatches.push(event));
    let mounting: ReturnType<typeof mountSurvey> | undefined;
    await act(async () => {
      mounting = mountSurvey(element, { articleId: 'a1' }, { ...context, hydration: { state: rendered.state } });
    });
    unmount = (await mounting) as Unmount;
    expect(within(screen.getByRole('group', { name: 'Which day suits you?' })).getAllByRole('radio')).toHaveLength(2);
    expect(mismatches).toEqual([]);
  });

  describe('when the server render failed (no state): asks its service for the article\'s survey', () => {
    const realFetch = globalThis.fetch;
    afterEach(() => {
      globalThis.fetch = realFetch;
    });

    it('mounts the survey the service answers', async () => {
      const asked: string[] = [];
      globalThis.fetch = (async (url: string) => {
        asked.push(url);
        return new Response(JSON.stringify({ formHandle: 'days', question: 'Pick a day', answers: [{ position: 1, label: 'Sunday' }, { position: 2, label: 'Monday' }] }), { status: 200 });
      }) as typeof fetch;
      element.innerHTML = '';
      let mounting: ReturnType<typeof mountSurvey> | undefined;
      await act(async () => {
        mounting = mountSurvey(element, { articleId: 'team talk' }, context);
      });
      unmount = (await mounting) as Unmount;
      expect(asked).toEqual(['/api/article-surveys/team%20talk']);
      expect(within(screen.getByRole('group', { name: 'Pick a day' })).getAllByRole('radio')).toHaveLength(2);
    });

    it('shows nothing for an article without a survey (404)', async () => {
      globalThis.fetch = (async () => new Response('{"error":"none","code":"not-found"}', { status: 404 })) as typeof fetch;
      element.innerHTML = '';
      unmount = await mountSurvey(element, { articleId: 'no-survey' }, context);
      expect(element.innerHTML).toBe('');
    });

    it('fails (the runtime keeps the placeholder and reports) when the service answers something else', async () => {
      globalThis.fetch = (async () => new Response('[]', { status: 200 })) as typeof fetch;
      await expect(mountSurvey(element, { articleId: 'a1' }, context)).rejects.toThrow(TypeError);
    });
  });
});
