import type { Engram } from "@engram/sdk";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { EngramProvider } from "../session/engram-context.js";
import { SessionProvider } from "../session/session-context.js";
import { AppRoutes, createRoutes } from "./router.js";

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // One retry covers a dropped request; permission and validation errors would only fail again.
      queries: { retry: 1, staleTime: 30_000 },
    },
  });
}

export function App({ loadEngram }: { loadEngram: () => Promise<Engram> }) {
  const [queryClient] = useState(createQueryClient);
  const [routes] = useState(() => createRoutes({ queryClient, loadEngram }));
  return (
    <EngramProvider load={loadEngram}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <AppRoutes routes={routes} />
        </SessionProvider>
      </QueryClientProvider>
    </EngramProvider>
  );
}
