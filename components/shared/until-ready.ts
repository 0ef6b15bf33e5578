// Calls held until a moment comes, then made in order: the URL's updates wait for Next's router
// (./url-state), which picks up history.replaceState only once its root has patched it.

export interface Gate<T> {
  /** `call` now once open, else held until `open()`; calls keep their order. */
  call: (arg: T) => void;
  open: () => void;
  isOpen: () => boolean;
  /** Called once when the gate opens (useSyncExternalStore's subscribe); returns the unsubscribe. */
  subscribe: (onOpen: () => void) => () => void;
}

export function untilReady<T>(call: (arg: T) => void): Gate<T> {
  let ready = false;
  const held: T[] = [];
  const waiting = new Set<() => void>();
  return {
    call: (arg) => (ready ? call(arg) : void held.push(arg)),
    open: () => {
      if (ready) return;
      ready = true;
      for (const arg of held.splice(0)) call(arg);
      for (const f of waiting) f();
      waiting.clear();
    },
    isOpen: () => ready,
    subscribe: (onOpen) => {
      waiting.add(onOpen);
      return () => void waiting.delete(onOpen);
    },
  };
}
