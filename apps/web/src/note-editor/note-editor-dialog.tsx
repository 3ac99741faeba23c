/**
 * The note editor, shared by the deck screen (add, edit) and the study screen
 * (E edits the card in place). Load it lazily: it is the only module that
 * brings in the editor library.
 *
 * Escape, the close button and clicks outside all ask before unsaved changes are lost.
 */
import type { DeckNoteType, Note } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from "react";
import { errorMessage } from "../lib/error-messages.js";
import { NoteHistoryButton } from "../note-history/note-history-button.js";
import { useEngramQueries } from "../session/factories.js";
import { useSession } from "../session/session-context.js";
import { Dialog } from "../ui/dialog.js";
import { Loading } from "../ui/loading.js";
import { DiscardDialog } from "./discard-dialog.js";
import { fieldsFor, isEditorKind, type NoteDraft } from "./note-draft.js";
import { NoteForm, rememberedKind, withKind } from "./note-form.js";
import { isSaveKey } from "./shortcuts.js";
import "./note-editor.css";

export interface NoteEditorDialogProps {
  deckId: string;
  /** The note to edit; without it the dialog adds notes. */
  noteId?: string;
  onClose: () => void;
  /**
   * Called after every save: each note added, or the edited note (whose dialog
   * then closes), with what else the save did ("Merged with Maya's change to Back.").
   */
  onSaved?: (noteId: string, notice?: string) => void;
}

type StoredFields = { front?: unknown; back?: unknown; text?: unknown; extra?: unknown };
const text = (value: unknown) => (typeof value === "string" ? value : "");

export function NoteEditorDialog({ deckId, noteId, onClose, onSaved }: NoteEditorDialogProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = useRef(false);
  const [confirming, setConfirming] = useState(false);
  const onDirtyChange = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);

  const requestClose = () => {
    if (dirty.current) setConfirming(true);
    else onClose();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Keys pressed in the editor are its own: the screen behind (study answers, deck shortcuts) never sees them.
    event.stopPropagation();
    if (confirming || !isSaveKey(event)) return;
    event.preventDefault();
    formRef.current?.requestSubmit();
  };

  return (
    <Dialog
      title={noteId ? "Edit note" : "Add note"}
      onClose={requestClose}
      size="wide"
      className="note-editor"
      closeButton
      closeOnOutsideClick
      // The first field takes focus itself once its editor exists.
      autoFocus={false}
      onKeyDown={onKeyDown}
    >
      {noteId ? (
        <div className="note-editor-history">
          <NoteHistoryButton noteId={noteId} canRestore />
        </div>
      ) : null}
      {noteId ? (
        <EditNote
          deckId={deckId}
          noteId={noteId}
          formRef={formRef}
          onDirtyChange={onDirtyChange}
          onCancel={requestClose}
          onSaved={(id, notice) => {
            onSaved?.(id, notice);
            onClose();
          }}
        />
      ) : (
        <NewNote
          deckId={deckId}
          formRef={formRef}
          onDirtyChange={onDirtyChange}
          onCancel={requestClose}
          onSaved={(id) => onSaved?.(id)}
        />
      )}
      {confirming && (
        <DiscardDialog
          adding={!noteId}
          onKeep={() => setConfirming(false)}
          onDiscard={() => {
            setConfirming(false);
            onClose();
          }}
        />
      )}
    </Dialog>
  );
}

interface BodyProps {
  deckId: string;
  formRef: React.RefObject<HTMLFormElement | null>;
  onDirtyChange: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: (noteId: string, notice?: string) => void;
}

const emptyDraft: NoteDraft = {
  kind: "basic",
  first: "",
  second: "",
  noteType: null,
  fields: {},
  tags: [],
  pendingTag: "",
};

/** The note types the deck's notes may use (its own and its ancestors'): the kind choice offers them, and a custom note is drawn through its own. */
function useNoteTypes(deckId: string) {
  return useQuery(useEngramQueries().noteTypes.usable(deckId));
}

function NewNote(props: BodyProps) {
  const types = useNoteTypes(props.deckId);
  // Without the deck's note types (they failed to load), the built-in kinds are still on offer.
  const noteTypes = types.data ?? noNoteTypes;
  const ready = !types.isPending;
  const initial = useMemo<NoteDraft | null>(
    () => (ready ? withKind(emptyDraft, rememberedKind(noteTypes), noteTypes) : null),
    [ready, noteTypes],
  );
  return initial ? (
    <NoteForm {...props} initial={initial} noteTypes={noteTypes} />
  ) : (
    <Loading label="Loading the deck's note types…" />
  );
}

const noNoteTypes: DeckNoteType[] = [];

/** Who saved a version of the note, by the name the deck's members see (docs/product.md §2). */
function useAuthorOf(deckId: string): (note: Note) => string {
  const members = useQuery(useEngramQueries().members.list(deckId));
  const session = useSession();
  const me = session.status === "signed-in" ? session.session.user.id : null;
  return (note) => {
    const author = note.updated_by;
    if (!author) return "Another member";
    if (author === me) return "You (in another window)";
    return members.data?.find((member) => member.user_id === author)?.display_name || "Another member";
  };
}

function EditNote({ noteId, ...props }: BodyProps & { noteId: string }) {
  const note = useQuery({ ...useEngramQueries().notes.detail(noteId), staleTime: 0 });
  const types = useNoteTypes(props.deckId);
  const authorOf = useAuthorOf(props.deckId);
  // Each reload starts a fresh form from the note as it is now.
  const [loads, setLoads] = useState(0);
  const reload = async () => {
    await note.refetch();
    setLoads((count) => count + 1);
  };
  const initial = useMemo<NoteDraft | null>(() => {
    if (!note.data || !isEditorKind(note.data.kind)) return null;
    const fields = (note.data.fields ?? {}) as StoredFields & Record<string, unknown>;
    const tags = note.data.tags ?? [];
    if (note.data.kind === "custom") {
      const typeId = note.data.note_type_id;
      const noteType = types.data?.find((type) => type.id === typeId);
      if (!noteType) return null;
      const values = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, text(value)]));
      return { ...emptyDraft, kind: "custom", noteType, fields: fieldsFor(noteType, values), tags };
    }
    if (note.data.kind === "image_occlusion") {
      const values = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, text(value)]));
      return { ...emptyDraft, kind: "image_occlusion", fields: values, tags };
    }
    const cloze = note.data.kind === "cloze";
    return {
      ...emptyDraft,
      kind: note.data.kind,
      first: text(cloze ? fields.text : fields.front),
      second: text(cloze ? fields.extra : fields.back),
      tags,
    };
  }, [note.data, types.data]);

  // A failed refetch (the note deleted meanwhile) keeps the form and what is typed; saving then says why.
  if (note.isError && !initial) {
    return (
      <p role="alert" className="error-summary">
        {errorMessage(note.error)}
      </p>
    );
  }
  if (note.data && !isEditorKind(note.data.kind)) {
    return <p className="empty">This kind of note cannot be changed in the editor.</p>;
  }
  if (note.data?.kind === "custom" && !initial && !types.isPending) {
    return (
      <p role="alert" className="error-summary">
        {types.isError ? errorMessage(types.error) : "This note's type is not one of the deck's note types any more."}
      </p>
    );
  }
  // Keyed on the note's id and reloads only: a refetch while editing must not throw away what is typed.
  return initial && note.data ? (
    <NoteForm
      key={`${noteId}-${loads}`}
      {...props}
      // The form keeps the note as it mounted with it (the draft's base); `latest` follows live updates.
      editing={{
        noteId,
        loaded: note.data,
        latest: note.data,
        refetchLatest: async () => (await note.refetch()).data,
        authorOf,
      }}
      onReload={() => void reload()}
      initial={initial}
      noteTypes={types.data ?? noNoteTypes}
    />
  ) : (
    <Loading label="Loading the note…" />
  );
}
