import { Suspense } from "react";
import { preloadable } from "../../lib/preloadable.js";
import { useSession } from "../../session/session-context.js";
import { hasStoredSession } from "../../session/stored-session.js";
import { Loading } from "../../ui/loading.js";

// Each its own chunk: a signed-out visitor never downloads the dashboard, nor a signed-in one the landing page.
const Dashboard = preloadable(() => import("./dashboard.js").then((module) => module.Dashboard));
const Landing = preloadable(() => import("./landing.js").then((module) => module.Landing));

// The one this visitor will see comes while the session is read.
(hasStoredSession() ? Dashboard : Landing).preload().catch(() => undefined);

export function HomePage() {
  const session = useSession();
  if (session.status === "loading") return <Loading />;
  return (
    <Suspense fallback={<Loading label={session.status === "signed-in" ? "Loading your day…" : undefined} />}>
      {session.status === "signed-in" ? <Dashboard /> : <Landing />}
    </Suspense>
  );
}
