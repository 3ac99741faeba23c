/** A public deck's first cards, front and back, as they look when studied (CardView), before adding it. */
import { cardOrdinals, type Note } from "@engram/core";
import type { Note as NoteRow, PublicDeck } from "@engram/sdk";
import { errorMessage } from "../../lib/error-messages.js";
import { CardView } from "../../ui/card-view/card-view.js";
import { Dialog } from "../../ui/dialog.js";
import { Loading } from "../../ui/loading.js";
import { AddDeckButton } from "./add-deck.js";
import { DeckFacts } from "./deck-facts.js";
import { previewSize, usePreviewDeck, usePreviewNotes } from "./use-explore.js";

/** The database checks each kind's fields (docs/product.md §5), so a stored row is a valid core note. */
const asNote = (row: NoteRow) => ({ kind: row.kind, fields: row.fields }) as Note;

export function DeckPreview({ deckId, listed, onClose }: { deckId: string; listed?: PublicDeck; onClose: () => void }) {
  const deck = usePreviewDeck(deckId);
  const notes = usePreviewNotes(deckId);
  const name = listed?.name ?? deck.data?.name ?? "Deck preview";
  const description = listed?.description ?? deck.data?.description ?? "";
  const failed = deck.error ?? notes.error;

  return (
    <Dialog title={name} onClose={onClose}>
      <div className="deck-preview">
        {description ? <p className="deck-preview-description">{description}</p> : null}
        {listed ? <DeckFacts deck={listed} /> : null}
        {failed ? (
          <p role="alert" className="error-summary">
            {errorMessage(failed)}
          </p>
        ) : notes.isPending ? (
          <Loading label="Loading its first cards…" />
        ) : notes.data && notes.data.notes.length > 0 ? (
          <>
            <h3 id={`${deckId}-cards`} className="deck-preview-heading">
              {notes.data.total > previewSize
                ? `The first ${previewSize} of ${notes.data.total} notes`
                : notes.data.total === 1
                  ? "Its only note"
                  : `All ${notes.data.total} notes`}
            </h3>
            <ol className="preview-cards" aria-labelledby={`${deckId}-cards`}>
              {notes.data.notes.map((row) => {
                const note = asNote(row);
                return (
                  <li key={row.id} className="preview-card">
                    <CardView deckId={deckId} note={note} ordinal={cardOrdinals(note)[0] ?? 1} revealed />
                  </li>
                );
              })}
            </ol>
          </>
        ) : (
          <p className="empty">This deck has no cards yet.</p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          Close
        </button>
        {failed ? null : <AddDeckButton deckId={deckId} deckName={name} primary />}
      </div>
    </Dialog>
  );
}
