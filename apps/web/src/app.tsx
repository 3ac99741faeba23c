import { Brain } from "lucide-react";

/** The signed-out landing page: what Engram is. */
export function App() {
  return (
    <div className="shell">
      <header className="header">
        <Brain aria-hidden="true" className="logo" />
        <span className="wordmark">Engram</span>
      </header>
      <main className="landing">
        <h1>Remember what you learn.</h1>
        <p>
          Flashcards that schedule themselves with FSRS, decks you edit together and each study on your own schedule,
          changes on every device within a second, and Anki decks imported whole.
        </p>
      </main>
    </div>
  );
}
