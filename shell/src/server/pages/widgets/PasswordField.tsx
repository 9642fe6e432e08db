export interface PasswordFieldProps {
  id: string;
  name: string;
  label: string;
  /** `new-password` or `current-password`. Default `new-password`. */
  autoComplete?: string;
  /** Hint shown under the field and linked with aria-describedby. */
  hint?: string;
}

/** A password input; mf-widgets adds a show/hide toggle whose name says what it will do. */
export function PasswordField({ id, name, label, autoComplete = 'new-password', hint }: PasswordFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="form-field password-field" data-widget="password-toggle">
      <label htmlFor={id}>{label}</label>
      <div className="password-field__row">
        <input id={id} name={name} type="password" autoComplete={autoComplete} aria-describedby={hintId} />
        <button
          type="button"
          className="password-field__toggle"
          data-password-toggle=""
          data-label-show="Show password"
          data-label-hide="Hide password"
          hidden
        >
          Show password
        </button>
      </div>
      {hint ? (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
