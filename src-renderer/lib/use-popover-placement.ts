// Where a popover opens (decision 0074's low windows): under its button when it fits there, else above it
// when there is more room above, and never taller than the room it has (it scrolls inside). Measured when
// it opens and when the window is resized; the popover's natural height is read, so a short one stays put.
import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';

/** Space kept between a popover and the window's edge or its button. */
const MARGIN = 8;

export interface PopoverPlacement {
  /** Class to add to the popover: `popover-up` when it opens above its button. */
  className: string;
  style: CSSProperties;
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
      const below = window.innerHeight - box.bottom - MARGIN * 2;
      const above = box.top - MARGIN * 2;
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
