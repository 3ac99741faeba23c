import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";
import { FieldFrame } from "./field-frame.js";

interface FieldProps {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string;
}

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & FieldProps;
export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> & FieldProps;

/** A labelled input whose error and hint are tied to it for screen readers. */
export function TextField({ name, label, error, hint, ...input }: TextFieldProps) {
  return (
    <FieldFrame name={name} label={label} error={error} hint={hint}>
      {(control) => <input {...control} {...input} />}
    </FieldFrame>
  );
}

/** The same for a multi-line text. */
export function TextAreaField({ name, label, error, hint, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame name={name} label={label} error={error} hint={hint}>
      {(control) => <textarea {...control} {...textarea} />}
    </FieldFrame>
  );
}
