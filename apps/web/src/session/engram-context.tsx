import type { Engram } from "@engram/sdk";
import { createContext, type ReactNode, useContext } from "react";

const EngramContext = createContext<Engram | null>(null);

export function EngramProvider({ engram, children }: { engram: Engram; children: ReactNode }) {
  return <EngramContext value={engram}>{children}</EngramContext>;
}

export function useEngram(): Engram {
  const engram = useContext(EngramContext);
  if (!engram) throw new Error("useEngram must be used inside <EngramProvider>");
  return engram;
}
