import type { ReactNode } from 'react';

export interface DialogProps {
  /** Id the triggers point at (`href="#id"`, `data-dialog-open="id"`). */
  id: string;
  title: string;
  /** `navigation` dialogs close at once when a link inside is followed. Default `generic`. */
  variant?: 'generic' | 'navigation';
  /** Text of the close button. Default "Close". */
  closeLabel?: string;
  /** Content of the dialog. */
  children?: ReactNode;
  /**
   * Content as trusted HTML from the page's own server (e.g. the contact page's privacy notice),
   * used instead of `children` when set. Never visitor input. Default none.
   */
  bodyHtml?: string;
}

/**
 * Dialog markup for mf-widgets. Without script it is a section its triggers link to, so its
 * content stays reachable; enhanced, it is a modal dialog opened by its triggers.
 */
export function Dialog({ id, title, variant = 'generic', closeLabel = 'Close', children, bodyHtml }: DialogProps) {
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
        {bodyHtml === undefined ? (
          <div className="khs-widgets-dialog__body">{children}</div>
        ) : (
          <div className="khs-widgets-dialog__body" dangerouslySetInnerHTML={{ __html: bodyHtml }} />
        )}
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
    <a href={`#${dialogId}`} className={className ? `khs-widgets-dialog-trigger ${className}` : 'khs-widgets-dialog-trigger'} data-dialog-open={dialogId}>
      {children}
    </a>
  );
}
