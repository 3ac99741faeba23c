/** The HTML view (CodeMirror) of a field, loaded when a field first shows its HTML, never with the deck screen. */
import { onDemand } from "../lib/preloadable.js";

export const HtmlView = onDemand(
  () => import("./html-view.js").then((module) => module.default),
  () => <p className="html-view-loading">Loading the HTML editor…</p>,
);
