/**
 * A clock for the live view: `{now, frame}` that advance every `intervalMs` while `active`, so
 * the spinner and the elapsed time move while a model call streams nothing.
 */
import { useEffect, useState } from "react";

/**
 * @param now the injected clock (epoch ms).
 * @param intervalMs tick period in ms; 0 disables ticking (tests).
 * @param active tick only while true.
 */
export function useTicker(
  now: () => number,
  intervalMs: number,
  active: boolean,
): { now: number; frame: number } {
  const [tick, setTick] = useState(() => ({ now: now(), frame: 0 }));
  useEffect(() => {
    if (!active || intervalMs <= 0) return;
    const timer = setInterval(
      () => setTick((previous) => ({ now: now(), frame: previous.frame + 1 })),
      intervalMs,
    );
    return () => clearInterval(timer);
  }, [now, intervalMs, active]);
  return tick;
}
