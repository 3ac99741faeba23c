import { lazy, Suspense } from "react";
import { useSession } from "../../session/session-context.js";
import { hasStoredSession } from "../../session/stored-session.js";
import { Loading } from "../../ui/loading.js";

// Each its own chunk: a signed-out visitor never downloads the dashboard, nor a signed-in one the landing page.
const Dashboard = lazy(() => import("./dashboard.js").then((module) => ({ default: module.Dashboard })));
const loadLanding = () => import("./landing.js");
const Landing = lazy(() => loadLanding().then((module) => ({ default: module.Landing })));

// Without a stored session the visitor will see the landing page: its code comes while the session is read.
if (!hasStoredSession()) void loadLanding();

export function HomePage() {
  const session = useSession();
  if (session.status === "loading") return <Loading />;
  return (
    <Suspense fallback={<Loading label={session.status === "signed-in" ? "Loading your day…" : undefined} />}>
      {session.status === "signed-in" ? <Dashboard /> : <Landing />}
    </Suspense>
  );
}
