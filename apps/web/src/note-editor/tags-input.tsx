/**
 * Tags as chips: a space or Enter turns what was typed into tags, Backspace in
 * the empty box takes the last one back for editing. Only the plain space
 * separates, so other spacing (a no-break or ideographic space) stays in the
 * tag and the rules below the field say why it can't be saved.
 */
import { X } from "lucide-react";
import { useId } from "react";
import "./tags-input.css";

/** What the box holds, split into tags at plain spaces. */
export function splitTags(text: string): string[] {
  return text.split(" ").filter((tag) => tag !== "");
}

interface TagsInputProps {
  tags: string[];
  pending: string;
  error?: string | undefined;
  onChange: (tags: string[], pending: string) => void;
  /** The field's label and input name, for a second set of tags beside the note's (the user's own). */
  label?: string;
  name?: string;
}

export function TagsInput({ tags, pending, error, onChange, label = "Tags", name = "tags" }: TagsInputProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const commit = (text: string, keep = "") => {
    const added = splitTags(text).filter((tag) => !tags.includes(tag));
    onChange([...tags, ...added], keep);
  };

  return (
    <div className="field tags-field">
      <label htmlFor={`${id}-input`}>{label}</label>
      <p id={hintId} className="field-hint">
        Separate tags with spaces.
      </p>
      <div className={`tags-box${error ? " has-error" : ""}`}>
        {tags.length > 0 && (
          <ul className="tag-chips" aria-label={`${label} on this note`}>
            {tags.map((tag) => (
              <li key={tag} className="tag-chip">
                <span>{tag}</span>
                <button
                  type="button"
                  className="tag-remove"
                  aria-label={`Remove tag ${tag}`}
                  onClick={() =>
                    onChange(
                      tags.filter((other) => other !== tag),
                      pending,
                    )
                  }
                >
                  <X aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={`${id}-input`}
          name={name}
          data-field={name}
          autoComplete="off"
          value={pending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => {
            const text = event.target.value;
            // Typing or pasting a space completes the tags before it.
            if (text.includes(" ")) {
              const last = text.slice(text.lastIndexOf(" ") + 1);
              commit(text.slice(0, text.lastIndexOf(" ")), last);
            } else onChange(tags, text);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.ctrlKey && !event.metaKey) {
              event.preventDefault();
              commit(pending);
            } else if (event.key === "Backspace" && pending === "" && tags.length > 0) {
              event.preventDefault();
              onChange(tags.slice(0, -1), tags.at(-1) ?? "");
            }
          }}
          onBlur={() => {
            if (pending !== "") commit(pending);
          }}
        />
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
