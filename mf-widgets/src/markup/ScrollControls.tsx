export interface ScrollControlsProps {
  previousLabel: string;
  nextLabel: string;
}

/** Previous/next buttons of a scroll container; hidden until mf-widgets enhances it. */
export function ScrollControls({ previousLabel, nextLabel }: ScrollControlsProps) {
  return (
    <div className="khs-widgets-scroll-controls" data-scroll-controls="" hidden>
      <button type="button" className="khs-widgets-scroll-controls__button" data-scroll-prev="" aria-label={previousLabel}>
        <span aria-hidden="true">‹</span>
      </button>
      <button type="button" className="khs-widgets-scroll-controls__button" data-scroll-next="" aria-label={nextLabel}>
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
