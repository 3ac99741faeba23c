import { type ComponentType, type ReactNode, use, useEffect, useState } from "react";

/** A component whose code loads on first use, or earlier with `preload`. */
export interface Preloadable<P extends object> {
  (props: P): ReactNode;
  /** Starts loading the code (once; again after a failure). */
  preload: () => Promise<unknown>;
}

/** A component's code, fetched once (again after a failure), and the component once it is there. */
function componentCode<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return { preload, loaded: () => loaded };
}

/**
 * Like `React.lazy`, but a component whose code is already there renders at
 * once instead of suspending on its first render: React holds content back
 * for up to 300 ms after a Suspense fallback was shown, so a screen preloaded
 * while the session was read would otherwise still wait. While the code is on
 * its way the component suspends; a failed load throws to the error boundary.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  const code = componentCode(load);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module at its top level, as React.lazy is
  function Component(props: P) {
    if (!code.loaded()) use(code.preload());
    const Loaded = code.loaded();
    return Loaded ? <Loaded {...props} /> : null;
  }
  return Object.assign(Component, { preload: code.preload });
}

/**
 * Starts `load` once `wanted` and renders again when it settles: true once it
 * has resolved, and a failure is thrown to the error boundary. Waiting this way
 * instead of suspending spares React's 300 ms hold-back after a fallback.
 */
export function useLoadWhen(wanted: boolean, load: () => Promise<unknown>): boolean {
  const [arrived, setArrived] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useEffect(() => {
    if (!wanted || arrived) return;
    let current = true;
    load().then(
      () => current && setArrived(true),
      (error: unknown) => current && setFailure({ error }),
    );
    return () => {
      current = false;
    };
  }, [wanted, arrived, load]);
  if (failure) throw failure.error;
  return arrived;
}

/**
 * For what a press opens (a dialog, a menu, an editor): shows `whileLoading`
 * until the code is there, then the component, without suspending. Through
 * Suspense, the first opening would wait for React's 300 ms hold-back after
 * the fallback however soon the code arrived. A failed load throws to the
 * error boundary.
 */
export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  whileLoading: (props: P) => ReactNode = () => null,
): Preloadable<P> {
  const code = componentCode(load);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module at its top level, as React.lazy is
  function Component(props: P) {
    const Loaded = code.loaded();
    useLoadWhen(!Loaded, code.preload);
    return Loaded ? <Loaded {...props} /> : whileLoading(props);
  }
  return Object.assign(Component, { preload: code.preload });
}
