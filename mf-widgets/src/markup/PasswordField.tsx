export interface PasswordFieldProps {
  id: string;
  name: string;
  label: string;
  /** `new-password` or `current-password`. Default `new-password`. */
  autoComplete?: string;
  /** Hint shown under the field and linked with aria-describedby. */
  hint?: string;
  /** Validation error shown under the label; marks the input `aria-invalid` and describes it (before the hint). */
  error?: string;
}

/** A password input; mf-widgets adds a show/hide toggle whose name says what it will do. */
export function PasswordField({ id, name, label, autoComplete = 'new-password', hint, error }: PasswordFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="khs-widgets-field khs-widgets-password-field" data-widget="password-toggle">
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={errorId} className="khs-widgets-field__error">
          <span className="khs-widgets-visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      <div className="khs-widgets-password-field__row">
        <input
          id={id}
          name={name}
          type="password"
          autoComplete={autoComplete}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
        />
        <button
          type="button"
          className="khs-widgets-password-field__toggle"
          data-password-toggle=""
          data-label-show="Show password"
          data-label-hide="Hide password"
          hidden
        >
          Show password
        </button>
      </div>
      {hint ? (
        <p id={hintId} className="khs-widgets-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
