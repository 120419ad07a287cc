// One modal dialog for the app (the re-run dialog, the record panel, the shortcut sheet): a backdrop that
// closes it, focus moved in when it opens and given back when it closes, and the closing keys kept from
// reaching the view's own shortcuts behind it.
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';

export function Modal({
  className,
  title,
  onClose,
  closeKeys = ['Escape'],
  initialFocus,
  testId,
  phase,
  children,
}: {
  className: string;
  title: ReactNode;
  onClose: () => void;
  /** Keys that close it (the shortcut sheet also closes on the "?" that opened it). */
  closeKeys?: readonly string[];
  /** What takes focus when it opens; the dialog itself when not given. */
  initialFocus?: RefObject<HTMLElement | null>;
  testId?: string;
  /** The record panel's phase, for its tests and styles. */
  phase?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? dialog.current)?.focus();
    return () => before?.focus();
    // Focus moves once, when the dialog opens.
  }, []);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={dialog}
        tabIndex={-1}
        className={`modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        data-phase={phase}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (closeKeys.includes(event.key)) {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
