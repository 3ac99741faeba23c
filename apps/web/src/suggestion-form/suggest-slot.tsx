/** The suggestion dialog, loaded lazily: it brings in the rich field editor. */
import { lazy, Suspense } from "react";
import { Loading } from "../ui/loading.js";
import type { SuggestDialogProps } from "./suggest-dialog.js";

const SuggestDialog = lazy(() => import("./suggest-dialog.js").then((m) => ({ default: m.SuggestDialog })));

export type { SuggestDialogProps, SuggestTarget } from "./suggest-dialog.js";

export function SuggestSlot(props: SuggestDialogProps) {
  return (
    <Suspense fallback={<Loading label="Opening the suggestion…" />}>
      <SuggestDialog {...props} />
    </Suspense>
  );
}
