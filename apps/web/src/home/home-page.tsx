import { useSession } from "../session/session-context.js";
import { Loading } from "../shell/loading.js";
import { Dashboard } from "./dashboard.js";
import { Landing } from "./landing.js";

export function HomePage() {
  const session = useSession();
  if (session.status === "loading") return <Loading />;
  if (session.status === "signed-in") return <Dashboard email={session.session.user.email ?? ""} />;
  return <Landing />;
}
