import { BarChart3, ChevronDown, LogOut, Settings } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { errorMessage } from "../../lib/error-messages.js";
import { useSignOut } from "../../session/use-sign-out.js";

/** The signed-in user's email, opening sign-out for this device or for every device. */
export function UserMenu({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const signOut = useSignOut();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="user-email">{email}</span>
        <ChevronDown aria-hidden="true" />
        <span className="visually-hidden">Account menu</span>
      </button>
      <div id={menuId} className="user-menu-panel" hidden={!open}>
        <Link className="menu-item" to="/stats" onClick={() => setOpen(false)}>
          <BarChart3 aria-hidden="true" /> Statistics
        </Link>
        <Link className="menu-item" to="/settings" onClick={() => setOpen(false)}>
          <Settings aria-hidden="true" /> Settings
        </Link>
        <button
          type="button"
          className="menu-item"
          disabled={signOut.isPending}
          onClick={() => signOut.mutate("local")}
        >
          <LogOut aria-hidden="true" /> Sign out
        </button>
        <button
          type="button"
          className="menu-item"
          disabled={signOut.isPending}
          onClick={() => signOut.mutate("global")}
        >
          <LogOut aria-hidden="true" /> Sign out everywhere
        </button>
        {signOut.error ? (
          <p role="alert" className="field-error">
            {errorMessage(signOut.error)}
          </p>
        ) : null}
      </div>
    </div>
  );
}
