import { Brain } from "lucide-react";
import { Link } from "../../lib/navigation.js";

export function Logo() {
  return (
    <Link to="/" className="brand" aria-label="Engram home">
      <Brain aria-hidden="true" className="logo" />
      <span className="wordmark">Engram</span>
    </Link>
  );
}
