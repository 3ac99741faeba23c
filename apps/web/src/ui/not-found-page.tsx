import { Link } from "../lib/navigation.js";
import { usePageTitle } from "./page-title.js";

export function NotFoundPage() {
  usePageTitle("Page not found");
  return (
    <div className="page">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </div>
  );
}
