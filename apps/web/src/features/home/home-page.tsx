import { lazy, Suspense } from "react";
import { useSession } from "../../session/session-context.js";
import { Loading } from "../../ui/loading.js";
import { Landing } from "./landing.js";

// Its own chunk: a signed-out visitor never downloads the dashboard.
const Dashboard = lazy(() => import("./dashboard.js").then((module) => ({ default: module.Dashboard })));

export function HomePage() {
  const session = useSession();
  if (session.status === "loading") return <Loading />;
  if (session.status === "signed-in") {
    return (
      <Suspense fallback={<Loading label="Loading your day…" />}>
        <Dashboard />
      </Suspense>
    );
  }
  return <Landing />;
}
