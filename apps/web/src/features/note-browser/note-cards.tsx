/**
 * An opened note: a custom note's fields by name, its cards with the user's
 * schedule and a suspend switch each, and the note's own actions.
 */
import type { CardWithSchedule, Note } from "@engram/sdk";
import { Info, Pencil, Trash2 } from "lucide-react";
import { startTransition, useOptimistic, useState } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { fieldText } from "../../lib/field-text.js";
import { onDemand } from "../../lib/preloadable.js";
import { fieldsOf, type NoteTypeInfo } from "./plain-text.js";
import { useDeckMutations, useNoteCards } from "./use-deck.js";

// Loaded when first opened, so the browser's chunk stays small.
const CardInfoDialog = onDemand(() => import("../../card-info/card-info-dialog.js").then((m) => m.CardInfoDialog));

const stateLabels: Record<string, string> = {
  new: "New",
  learning: "Learning",
  review: "Review",
  relearning: "Relearning",
};

function cardName(note: Note, noteType: NoteTypeInfo | undefined, card: CardWithSchedule): string {
  if (note.kind === "custom") {
    if (noteType?.kind === "cloze") return `Cloze ${card.ordinal}`;
    return noteType?.templates[card.ordinal - 1]?.name || `Card ${card.ordinal}`;
  }
  if (note.kind === "cloze") return `Cloze ${card.ordinal}`;
  if (note.kind === "basic_reversed") return card.ordinal === 1 ? "Front → Back" : "Back → Front";
  return "Front → Back";
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

function dueText(card: CardWithSchedule): string {
  const schedule = card.schedule;
  if (!schedule || schedule.state === "new") return "Not studied yet";
  return dateFormat.format(new Date(schedule.due));
}

function intervalText(card: CardWithSchedule): string {
  const days = card.schedule?.scheduled_days ?? 0;
  if (!card.schedule || card.schedule.state === "new") return "—";
  if (days < 1) return "Under a day";
  return days === 1 ? "1 day" : `${days} days`;
}

/** A card its user keeps forgetting; the mark is theirs alone (other members do not see it). */
function LeechTag() {
  return (
    <span className="leech-tag" title="You keep forgetting this card: it reached the deck's leech threshold.">
      leech
    </span>
  );
}

/** A custom note's fields in its type's order, each as plain text under its name. */
function NoteFields({ note, noteType }: { note: Note; noteType: NoteTypeInfo }) {
  const fields = fieldsOf(note);
  return (
    <dl className="note-fields">
      {noteType.fields.map((name) => {
        const value = fields[name];
        const text = fieldText(typeof value === "string" ? value : "");
        return (
          <div key={name} className="note-field">
            <dt>{name}</dt>
            <dd>{text || <span className="muted">(empty)</span>}</dd>
          </div>
        );
      })}
    </dl>
  );
}

export function NoteCards({
  note,
  noteType,
  editable,
  suggesting = false,
  onEdit,
  onDelete,
}: {
  note: Note;
  noteType: NoteTypeInfo | undefined;
  editable: boolean;
  /** Edit and delete are offered as suggestions to the deck's maintainers. */
  suggesting?: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const cards = useNoteCards(note.id);
  const { suspendCards } = useDeckMutations();
  // What the user asked for shows at once, in the click's own render, until the saved schedules have been fetched again.
  const [asked, ask] = useOptimistic<Record<string, boolean>, { cardId: string; suspended: boolean }>(
    {},
    (current, { cardId, suspended }) => ({ ...current, [cardId]: suspended }),
  );
  const [infoCardId, setInfoCardId] = useState<string | null>(null);
  const setSuspended = (cardId: string, suspended: boolean) =>
    startTransition(async () => {
      ask({ cardId, suspended });
      // A refusal is shown below the table, and the switch goes back to what is saved.
      await suspendCards.mutateAsync({ cardIds: [cardId], suspended }).catch(() => undefined);
    });

  return (
    <div className="note-cards">
      {note.kind === "custom" && noteType ? <NoteFields note={note} noteType={noteType} /> : null}
      {cards.isPending ? (
        <p className="muted">Loading cards…</p>
      ) : cards.isError ? (
        <p role="alert">{errorMessage(cards.error)}</p>
      ) : (
        <table className="card-table">
          <caption className="visually-hidden">Cards of this note</caption>
          <thead>
            <tr>
              <th scope="col">Card</th>
              <th scope="col">State</th>
              <th scope="col">Due</th>
              <th scope="col">Interval</th>
              <th scope="col">Suspended</th>
              <th scope="col">Info</th>
            </tr>
          </thead>
          <tbody>
            {cards.data.map((card) => {
              const suspended = asked[card.id] ?? card.schedule?.suspended ?? false;
              const name = cardName(note, noteType, card);
              return (
                <tr key={card.id}>
                  <th scope="row">{name}</th>
                  <td>
                    <span className={`state state-${card.schedule?.state ?? "new"}`}>
                      {stateLabels[card.schedule?.state ?? "new"]}
                    </span>
                    {card.schedule?.leech_at ? <LeechTag /> : null}
                  </td>
                  <td>{dueText(card)}</td>
                  <td>{intervalText(card)}</td>
                  <td>
                    {card.schedule ? (
                      <label className="switch">
                        <input
                          type="checkbox"
                          checked={suspended}
                          disabled={suspendCards.isPending}
                          onChange={() => setSuspended(card.id, !suspended)}
                        />
                        <span className="visually-hidden">Suspend {name}</span>
                        <span aria-hidden="true">{suspended ? "Yes" : "No"}</span>
                      </label>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    <button type="button" className="icon-button" onClick={() => setInfoCardId(card.id)}>
                      <Info aria-hidden="true" />
                      <span className="visually-hidden">Card info: {name}</span>
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {infoCardId ? <CardInfoDialog cardId={infoCardId} onClose={() => setInfoCardId(null)} /> : null}
      {suspendCards.isError ? <p role="alert">{errorMessage(suspendCards.error)}</p> : null}
      {suggesting ? (
        <div className="note-actions">
          <button type="button" className="button secondary small" onClick={onEdit}>
            <Pencil aria-hidden="true" /> Suggest an edit
          </button>
          <button type="button" className="button danger-outline small" onClick={onDelete}>
            <Trash2 aria-hidden="true" /> Suggest deletion
          </button>
        </div>
      ) : null}
      {editable ? (
        <div className="note-actions">
          <button type="button" className="button secondary small" onClick={onEdit}>
            <Pencil aria-hidden="true" /> Edit
          </button>
          <button type="button" className="button danger-outline small" onClick={onDelete}>
            <Trash2 aria-hidden="true" /> Delete
          </button>
        </div>
      ) : null}
    </div>
  );
}
