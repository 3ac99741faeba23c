import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  /** The address shown: moving elsewhere clears the error, so the next screen gets its chance. */
  place: string;
  children: ReactNode;
}

/**
 * What a screen that failed to load or to draw leaves behind: a message and a
 * way to try again, inside the page's layout, instead of an empty window. A
 * chunk that did not arrive (a release replaced it, the connection dropped)
 * loads again on reload.
 */
export class ScreenErrorBoundary extends Component<Props, { error: unknown; place: string }> {
  override state = { error: undefined as unknown, place: this.props.place };

  static getDerivedStateFromProps(props: Props, state: { error: unknown; place: string }) {
    return props.place === state.place ? null : { error: undefined, place: props.place };
  }

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <div className="page" role="alert">
        <h1>This screen could not be shown</h1>
        <p>Something went wrong while loading it. Your data is safe.</p>
        <p>
          <button type="button" className="button primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        </p>
      </div>
    );
  }
}
