// Escape closes an open panel or popover wherever focus is (a click on the button that opened it leaves
// focus on that button, outside the panel), then gives focus back to that button. An Escape something
// inside already handled (a word being edited, a menu) is left alone.
import { useEffect, useRef, type RefObject } from 'react';

export function useEscape(open: boolean, onClose: () => void, returnTo: RefObject<HTMLElement | null>): void {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      const target = returnTo.current;
      close.current();
      target?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open, returnTo]);
}
