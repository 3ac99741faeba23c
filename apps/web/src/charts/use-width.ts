import { type RefObject, useLayoutEffect, useState } from "react";

/**
 * The element's content width in CSS pixels, followed as it resizes, so a
 * chart draws at its real size and its text keeps its size (a stretched
 * viewBox would stretch the labels too). 0 until the first measurement.
 */
export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
