// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { examplePageConfig, getPageBus, type IslandContext, type Unmount } from 'contracts';
import mountSurvey from './Survey.js';

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

  it('refuses to mount without a handle or without a survey, keeping the fallback', () => {
    const before = element.innerHTML;
    expect(() => mountSurvey(element, {} as never, context)).toThrow(TypeError);
    expect(() => mountSurvey(element, { formHandle: 'other-survey' }, context)).toThrow(TypeError);
    expect(element.innerHTML).toBe(before);
  });
});
