import { useEffect, useRef } from "react";

/**
 * Single-key shortcuts (docs/web.md "Keyboard shortcuts"), ignored while typing in a field
 * (except Escape, which leaves it) and with Ctrl, Alt or Meta held.
 */
export function useShortcuts(handlers: Record<string, () => unknown>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      const typing =
        target !== null &&
        (target.tagName === "TEXTAREA" || target.tagName === "INPUT" || target.isContentEditable);
      if (typing) {
        if (event.key === "Escape") target.blur();
        return;
      }
      const handler = current.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
