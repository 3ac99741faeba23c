import { type ReactNode, useId } from "react";

/** The attributes that tie a control to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  name: string;
  "data-field": string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

export interface FieldFrameProps {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, hint and error around one control, tied to it for screen readers. */
export function FieldFrame({ name, label, error, hint, children }: FieldFrameProps) {
  const id = `${useId()}-${name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        name,
        "data-field": name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
