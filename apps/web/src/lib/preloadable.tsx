import { type ComponentType, type ReactNode, use } from "react";

/** A component whose code loads on first use, or earlier with `preload`. */
export interface Preloadable<P extends object> {
  (props: P): ReactNode;
  /** Starts loading the code (once; again after a failure). */
  preload: () => Promise<unknown>;
}

/**
 * Like `React.lazy`, but a component whose code is already there renders at
 * once instead of suspending on its first render: React holds content back
 * for up to 300 ms after a Suspense fallback was shown, so a screen preloaded
 * while the session was read would otherwise still wait. While the code is on
 * its way the component suspends; a failed load throws to the error boundary.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module at its top level, as React.lazy is
  function Component(props: P) {
    if (!Loaded) use(preload());
    return Loaded ? <Loaded {...props} /> : null;
  }
  return Object.assign(Component, { preload });
}
