export interface FileFieldProps {
  id: string;
  name: string;
  label: string;
  /** `accept` of the input, e.g. `.pdf,.docx`. */
  accept?: string;
  /** Text while no file is chosen. Default "No file chosen". */
  emptyText?: string;
}

/** A file input; mf-widgets shows the chosen file's name next to it. */
export function FileField({ id, name, label, accept, emptyText = 'No file chosen' }: FileFieldProps) {
  return (
    <div className="form-field file-field" data-widget="file-upload">
      <label htmlFor={id} className="file-field__label">
        {label}
      </label>
      <input id={id} name={name} type="file" accept={accept} className="file-field__input" />
      <p className="file-field__name" data-file-name="" data-empty-text={emptyText} hidden>
        {emptyText}
      </p>
    </div>
  );
}
