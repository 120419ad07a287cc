// A press anywhere outside an open popover closes it, as a menu does: a click on another popover's button
// (History, Apply dictionary) then leaves one popover open, not two stacked over the player.
import { useEffect, useRef, type RefObject } from 'react';

export function useOutsideClick(open: boolean, onClose: () => void, inside: RefObject<HTMLElement | null>): void {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!inside.current?.contains(event.target as Node)) close.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, inside]);
}
