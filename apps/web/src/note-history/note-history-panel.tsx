/**
 * A note's history: every version newest first with what it changed, and,
 * for the deck's editors, "Restore this version", which asks first and then
 * saves that version's text and tags as a new version.
 */
import type { NoteHistoryEntry } from "@engram/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../lib/error-messages.js";
import { useEngramQueries } from "../session/factories.js";
import { useEngramMutations } from "../session/mutations.js";
import { Dialog } from "../ui/dialog.js";
import { Loading } from "../ui/loading.js";
import { VersionChange, VersionSummary } from "./version-change.js";
import "./note-history.css";

export interface NoteHistoryPanelProps {
  noteId: string;
  /** Whether the user edits the deck, and so may restore versions. */
  canRestore: boolean;
  onClose: () => void;
}

export function NoteHistoryPanel({ noteId, canRestore, onClose }: NoteHistoryPanelProps) {
  const history = useQuery(useEngramQueries().noteHistory.note(noteId));
  const revert = useMutation(useEngramMutations().noteHistory.revert());
  const [confirming, setConfirming] = useState<NoteHistoryEntry | null>(null);
  const [status, setStatus] = useState("");
  const latest = history.data?.[0];
  // A deleted note's versions are shown, but there is no note to restore them into.
  const restorable = (entry: NoteHistoryEntry) =>
    canRestore && latest !== undefined && latest.action !== "delete" && entry.action !== "delete" && entry !== latest;

  const restore = (entry: NoteHistoryEntry) => {
    if (!latest) return;
    setConfirming(null);
    setStatus("");
    revert.mutate(
      { noteId, version: entry.version, baseVersion: latest.version },
      { onSuccess: (note) => setStatus(`Version ${entry.version} restored as version ${note.version}.`) },
    );
  };

  return (
    <Dialog title="History" onClose={onClose} size="wide" className="note-history" closeButton closeOnOutsideClick>
      <p className="history-status" role="status">
        {status}
      </p>
      {revert.isError ? (
        <p role="alert" className="error-summary">
          {errorMessage(revert.error)}
        </p>
      ) : null}
      {history.isPending ? (
        <Loading label="Loading the note's history…" />
      ) : history.isError ? (
        <p role="alert" className="error-summary">
          {errorMessage(history.error)}
        </p>
      ) : history.data.length === 0 ? (
        <p className="empty">This note has no history you can see.</p>
      ) : (
        <ol className="history-list" aria-label="Versions, newest first">
          {history.data.map((entry) => (
            <li key={entry.version} className="history-entry">
              <h3 className="version-heading">
                Version {entry.version}
                {entry === latest && entry.action !== "delete" ? (
                  <span className="version-current">current</span>
                ) : null}
              </h3>
              <VersionSummary entry={entry} />
              <VersionChange entry={entry} />
              {restorable(entry) ? (
                <button
                  type="button"
                  className="button secondary"
                  disabled={revert.isPending}
                  onClick={() => setConfirming(entry)}
                >
                  Restore this version
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {confirming ? (
        <Dialog
          title={`Restore version ${confirming.version}?`}
          role="alertdialog"
          onClose={() => setConfirming(null)}
          description="The note gets this version's text and tags back as a new version. Every version stays in its history."
        >
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button type="button" className="button primary" onClick={() => restore(confirming)}>
              Restore
            </button>
          </div>
        </Dialog>
      ) : null}
    </Dialog>
  );
}
