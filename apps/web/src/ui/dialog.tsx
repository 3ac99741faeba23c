/**
 * The app's one modal dialog, on Radix Dialog (docs/conventions.md §11): a
 * portal over an overlay, focus kept inside, Escape closes it, the title names
 * it, and focus goes back to what opened it. Mount it to open it.
 */
import * as RadixDialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { type KeyboardEventHandler, type ReactNode, useState } from "react";

export interface DialogProps {
  title: string;
  /** Asked to close: Escape, the close button, or a click outside when `closeOnOutsideClick`. */
  onClose: () => void;
  children: ReactNode;
  /** A sentence under the title, read with it by screen readers. */
  description?: ReactNode;
  /** "wide" leaves room for a form beside a preview. */
  size?: "normal" | "wide";
  /** "alertdialog" for a question that interrupts the user, such as losing their changes. */
  role?: "dialog" | "alertdialog";
  /** A × button beside the title. */
  closeButton?: boolean;
  closeOnOutsideClick?: boolean;
  /** False when the content focuses itself, as an editor does once it exists. */
  autoFocus?: boolean;
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  className?: string;
}

export function Dialog({
  title,
  onClose,
  children,
  description,
  size = "normal",
  role = "dialog",
  closeButton = false,
  closeOnOutsideClick = false,
  autoFocus = true,
  onKeyDown,
  className,
}: DialogProps) {
  // Radix returns focus only to its own trigger; these dialogs open from any button, so remember which.
  const [opener] = useState(() => document.activeElement);
  const classes = ["dialog", size === "wide" ? "dialog-wide" : "", className ?? ""].filter(Boolean).join(" ");
  const heading = <RadixDialog.Title>{title}</RadixDialog.Title>;

  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          role={role}
          className={classes}
          // Without a description, say so, rather than point at nothing.
          {...(description ? {} : { "aria-describedby": undefined })}
          onKeyDown={onKeyDown}
          onOpenAutoFocus={(event) => {
            if (!autoFocus) event.preventDefault();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
          }}
          onEscapeKeyDown={(event) => {
            // A part that closes itself on Escape (a link prompt) keeps the key; the dialog stays open.
            if (event.target instanceof Element && event.target.closest("[data-keeps-escape]")) event.preventDefault();
          }}
          onPointerDownOutside={(event) => {
            if (!closeOnOutsideClick) event.preventDefault();
          }}
        >
          {closeButton ? (
            <header className="dialog-header">
              {heading}
              <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
                <X aria-hidden />
              </button>
            </header>
          ) : (
            heading
          )}
          {description ? <RadixDialog.Description>{description}</RadixDialog.Description> : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
