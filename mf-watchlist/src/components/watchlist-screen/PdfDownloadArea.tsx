export interface PdfDownloadAreaProps {
  /** Button text, e.g. "Download as PDF". */
  label: string;
  /** Text of the progress indicator, e.g. "Loading…". */
  downloadingLabel: string;
  downloading: boolean;
  onDownload(): void;
}

/** PDF download button; while downloading it is busy and an indicator shows. */
export function PdfDownloadArea({ label, downloadingLabel, downloading, onDownload }: PdfDownloadAreaProps) {
  return (
    <div className="khs-watchlist-screen__download" aria-busy={downloading}>
      <button type="button" onClick={onDownload} aria-disabled={downloading} disabled={downloading}>
        {label}
      </button>
      <p className="khs-watchlist-screen__download-status" role="status">
        {downloading ? (
          <>
            <span className="khs-watchlist-screen__spinner" aria-hidden="true" />
            <span>{downloadingLabel}</span>
          </>
        ) : null}
      </p>
    </div>
  );
}
