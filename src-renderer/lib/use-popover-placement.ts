// Where a popover opens (decision 0074's low windows): under its button when it fits there, else above it
// when there is more room above, and never taller than the room it has (it scrolls inside), in the part of
// the window that shows it. Measured when it opens and when the window is resized; the popover's natural
// height is read, so a short one stays put.
import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';

/** Space kept between a popover and the window's edge or its button. */
const MARGIN = 8;

export interface PopoverPlacement {
  /** Class to add to the popover: `popover-up` when it opens above its button. */
  className: string;
  style: CSSProperties;
}

/**
 * The part of the window the popover can show in: inside the nearest scrolling ancestor (the app's main
 * area sits under the header, so a popover above a button high in it was cut off there).
 */
function visibleBounds(element: HTMLElement | null): { top: number; bottom: number } {
  for (let node = element?.parentElement ?? null; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') {
      const rect = node.getBoundingClientRect();
      return { top: Math.max(0, rect.top), bottom: Math.min(window.innerHeight, rect.bottom) };
    }
  }
  return { top: 0, bottom: window.innerHeight };
}

export function usePopoverPlacement(
  open: boolean,
  anchor: RefObject<HTMLElement | null>,
  popover: RefObject<HTMLElement | null>,
): PopoverPlacement {
  const [placement, setPlacement] = useState<{ up: boolean; room: number } | null>(null);
  useLayoutEffect(() => {
    if (!open) return setPlacement(null);
    const place = () => {
      const box = anchor.current?.getBoundingClientRect();
      if (!box) return;
      const { top, bottom } = visibleBounds(anchor.current);
      const below = bottom - box.bottom - MARGIN * 2;
      const above = box.top - top - MARGIN * 2;
      const needed = popover.current?.scrollHeight ?? 0;
      const up = needed > below && above > below;
      setPlacement({ up, room: Math.max(120, Math.floor(up ? above : below)) });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, anchor, popover]);
  if (!placement) return { className: '', style: {} };
  return {
    className: placement.up ? 'popover-up' : '',
    style: { maxHeight: placement.room, overflowY: 'auto' },
  };
}
