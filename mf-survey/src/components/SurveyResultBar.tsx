export interface SurveyResultBarProps {
  /** Id of the element holding the answer's label (names the meter). */
  labelledBy: string;
  /** Integer percentage, 0–100. */
  percent: number;
}

/**
 * One answer's share: a bar with the number beside it. The bar is a `meter` for assistive
 * technology (named by the answer, value text "40%"); the visible number is hidden from it to
 * avoid reading the value twice.
 */
export function SurveyResultBar({ labelledBy, percent }: SurveyResultBarProps) {
  return (
    <span className="khs-survey__result">
      <span
        className="khs-survey__bar"
        role="meter"
        aria-labelledby={labelledBy}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <span className="khs-survey__bar-fill" style={{ width: `${percent}%` }} />
      </span>
      <span className="khs-survey__percent" aria-hidden="true">
        {percent}%
      </span>
    </span>
  );
}
