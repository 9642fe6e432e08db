export interface FileFieldProps {
  id: string;
  name: string;
  label: string;
  /** `accept` of the input, e.g. `.pdf,.docx`. */
  accept?: string;
  /** Text while no file is chosen. Default "No file chosen". */
  emptyText?: string;
  /** Hint shown under the field (accepted types, size) and linked with aria-describedby. */
  hint?: string;
  /** Validation error shown under the label; marks the input `aria-invalid` and describes it (before the hint). */
  error?: string;
}

/** A file input; mf-widgets shows the chosen file's name next to it. */
export function FileField({ id, name, label, accept, emptyText = 'No file chosen', hint, error }: FileFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="khs-widgets-field khs-widgets-file-field" data-widget="file-upload">
      <label htmlFor={id} className="khs-widgets-file-field__label">
        {label}
      </label>
      {error ? (
        <p id={errorId} className="khs-widgets-field__error">
          <span className="khs-widgets-visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        className="khs-widgets-file-field__input"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
      <p className="khs-widgets-file-field__name" data-file-name="" data-empty-text={emptyText} hidden>
        {emptyText}
      </p>
      {hint ? (
        <p id={hintId} className="khs-widgets-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
