/**
 * The Engram SDK for the screens. It is loaded on first use, not with the
 * page: a signed-out visitor on the landing page never downloads the SDK,
 * supabase-js or their validation schemas. A screen that needs it suspends
 * until it is there.
 */
import type { Engram } from "@engram/sdk";
import { createContext, type ReactNode, use, useCallback, useContext, useMemo, useRef, useState } from "react";

interface EngramSource {
  /** Null until loaded. */
  engram: Engram | null;
  /** Starts loading (once) and resolves with the SDK. */
  load: () => Promise<Engram>;
}

const EngramContext = createContext<EngramSource | null>(null);

export function EngramProvider({ load: loadEngram, children }: { load: () => Promise<Engram>; children: ReactNode }) {
  const [engram, setEngram] = useState<Engram | null>(null);
  const loading = useRef<Promise<Engram> | null>(null);
  const load = useCallback(() => {
    loading.current ??= loadEngram().then((loaded) => {
      setEngram(loaded);
      return loaded;
    });
    return loading.current;
  }, [loadEngram]);
  const source = useMemo(() => ({ engram, load }), [engram, load]);
  return <EngramContext value={source}>{children}</EngramContext>;
}

function useSource(): EngramSource {
  const source = useContext(EngramContext);
  if (!source) throw new Error("useEngram must be used inside <EngramProvider>");
  return source;
}

/** The SDK; the calling component suspends while it loads for the first time. */
export function useEngram(): Engram {
  const source = useSource();
  return source.engram ?? use(source.load());
}

/** The SDK if something has loaded it already, and the way to load it, without suspending. */
export function useEngramSource(): EngramSource {
  return useSource();
}
