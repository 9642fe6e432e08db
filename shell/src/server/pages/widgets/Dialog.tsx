import type { ReactNode } from 'react';

export interface DialogProps {
  /** Id the triggers point at (`href="#id"`, `data-dialog-open="id"`). */
  id: string;
  title: string;
  /** `navigation` dialogs close at once when a link inside is followed. Default `generic`. */
  variant?: 'generic' | 'navigation';
  /** Text of the close button. Default "Close". */
  closeLabel?: string;
  children: ReactNode;
}

/**
 * Dialog markup for mf-widgets. Without script it is a section its triggers link to, so its
 * content stays reachable; enhanced, it is a modal dialog opened by its triggers.
 */
export function Dialog({ id, title, variant = 'generic', closeLabel = 'Close', children }: DialogProps) {
  const titleId = `${id}-title`;
  return (
    <section
      id={id}
      className={`khs-widgets-dialog khs-widgets-dialog--${variant}`}
      data-widget="dialog"
      data-dialog-variant={variant}
      aria-labelledby={titleId}
    >
      <div className="khs-widgets-dialog__panel">
        <div className="khs-widgets-dialog__head">
          <h2 id={titleId} className="khs-widgets-dialog__title">
            {title}
          </h2>
          <button type="button" className="khs-widgets-dialog__close" data-dialog-close="" hidden>
            {closeLabel}
          </button>
        </div>
        <div className="khs-widgets-dialog__body">{children}</div>
      </div>
    </section>
  );
}

export interface DialogTriggerProps {
  /** Id of the dialog it opens. */
  dialogId: string;
  className?: string;
  children: ReactNode;
}

/** A link to the dialog's content; mf-widgets makes it a button that opens the dialog. */
export function DialogTrigger({ dialogId, className, children }: DialogTriggerProps) {
  return (
    <a href={`#${dialogId}`} className={className ? `dialog-trigger ${className}` : 'dialog-trigger'} data-dialog-open={dialogId}>
      {children}
    </a>
  );
}
