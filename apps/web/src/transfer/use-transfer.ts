import { useMemo } from "react";
import { useEngram } from "../session/engram-context.js";
import { type TransferClient, transferClientFor } from "./transfer-client.js";

/** The transfer worker's client for the signed-in SDK; the caller suspends while the SDK loads. */
export function useTransfer(): TransferClient {
  const engram = useEngram();
  return useMemo(() => transferClientFor(engram), [engram]);
}
