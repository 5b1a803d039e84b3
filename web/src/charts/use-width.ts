import { type RefObject, useLayoutEffect, useRef, useState } from 'react';

/** The width of an element in CSS pixels, kept up to date (charts size and thin their labels with it). */
export function useWidth<T extends HTMLElement>(initial = 800): [RefObject<T | null>, number] {
  const ref = useRef<T | null>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || initial);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth || initial));
    ro.observe(el);
    return () => ro.disconnect();
  }, [initial]);
  return [ref, width];
}
