// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { readSurveyFromFallback } from './readSurveyFromFallback.js';

function island(html: string): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  return element;
}

// The markup this remote's server build renders (src/islands/Survey.server.tsx).
const SERVER_FALLBACK = `<form class="khs-survey" aria-disabled="true"><fieldset disabled><legend>How do you take your coffee?</legend>
  <label class="khs-survey__answer"><input type="radio" name="survey-coffee" value="1"/> Black</label>
  <label class="khs-survey__answer"><input type="radio" name="survey-coffee" value="2"/> With <em>milk</em></label>
  <button type="submit">Vote</button></fieldset></form>`;

describe('readSurveyFromFallback', () => {
  it('reads the question and the answers with their positions', () => {
    expect(readSurveyFromFallback(island(SERVER_FALLBACK), 'coffee')).toEqual({
      question: 'How do you take your coffee?',
      answers: [
        { position: 1, label: 'Black' },
        { position: 2, label: 'With milk' },
      ],
    });
  });

  it('ignores radios of another survey', () => {
    expect(readSurveyFromFallback(island(SERVER_FALLBACK), 'tea')).toBeUndefined();
  });

  it('gives undefined for markup without a survey', () => {
    expect(readSurveyFromFallback(island('<p>Loading</p>'), 'coffee')).toBeUndefined();
    expect(readSurveyFromFallback(island('<form class="khs-survey"><fieldset><legend> </legend></fieldset></form>'), 'coffee')).toBeUndefined();
    expect(
      readSurveyFromFallback(
        island('<form class="khs-survey"><legend>Q</legend><label><input type="radio" name="survey-coffee" value="x"> A</label></form>'),
        'coffee',
      ),
    ).toBeUndefined();
  });
});
