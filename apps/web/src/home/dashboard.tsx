import { Link } from "react-router";
import { useDecks } from "../decks/use-decks.js";
import { usePageTitle } from "../shell/page-title.js";

/** The signed-in start page: for now, a way into the decks. */
export function Dashboard({ email }: { email: string }) {
  usePageTitle("Home");
  const decks = useDecks();
  const count = decks.data?.length;
  return (
    <div className="page">
      <h1>Welcome back</h1>
      <p className="lead">Signed in as {email}.</p>
      <p>
        <Link className="button primary" to="/decks">
          {count === undefined ? "Go to your decks" : `Go to your decks (${count})`}
        </Link>
      </p>
    </div>
  );
}
