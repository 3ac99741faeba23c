/** The deck screen's export menu, here too: the deck as an Anki package or CSV. */
import { ExportMenu } from "../../export/export-menu.js";

export function ExportSection({ deckId }: { deckId: string }) {
  return (
    <section className="settings-section" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <p className="settings-intro">
        Download the deck as an Anki package (optionally with your own schedule and review history) or as a CSV file. It
        is made on this device.
      </p>
      <ExportMenu deckId={deckId} />
    </section>
  );
}
