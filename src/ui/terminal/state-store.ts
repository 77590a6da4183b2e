/**
 * A tiny external store for React's `useSyncExternalStore`: the command sets the latest state
 * (from the reducer), the Ink tree re-renders. Nothing here derives state; it only holds it.
 */

/** Holds one value and tells subscribers when it changes. */
export interface StateStore<T> {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
}

/** Creates a store holding `initial`. */
export function createStateStore<T>(initial: T): StateStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (next === value) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
