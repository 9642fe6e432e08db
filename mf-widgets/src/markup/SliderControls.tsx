export interface SliderControlsProps {
  previousLabel: string;
  nextLabel: string;
}

/** Previous/next buttons and a status line of a slider; hidden until mf-widgets enhances it. */
export function SliderControls({ previousLabel, nextLabel }: SliderControlsProps) {
  return (
    <div className="khs-widgets-slider__controls" data-slider-controls="" hidden>
      <button type="button" className="khs-widgets-slider__button" data-slider-prev="" aria-label={previousLabel}>
        <span aria-hidden="true">‹</span>
      </button>
      <p className="khs-widgets-slider__status" data-slider-status="" aria-live="polite" />
      <button type="button" className="khs-widgets-slider__button" data-slider-next="" aria-label={nextLabel}>
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
