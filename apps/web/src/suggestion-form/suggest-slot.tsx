/** The suggestion dialog, loaded lazily: it brings in the rich field editor. */
import { onDemand } from "../lib/preloadable.js";
import { Loading } from "../ui/loading.js";
import type { SuggestDialogProps } from "./suggest-dialog.js";

const SuggestDialog = onDemand(
  () => import("./suggest-dialog.js").then((m) => m.SuggestDialog),
  () => <Loading label="Opening the suggestion…" />,
);

export type { SuggestDialogProps, SuggestTarget } from "./suggest-dialog.js";

export function SuggestSlot(props: SuggestDialogProps) {
  return <SuggestDialog {...props} />;
}
