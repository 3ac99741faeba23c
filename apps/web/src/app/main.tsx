import type { Engram } from "@engram/sdk";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { hasStoredSession } from "../session/stored-session.js";
import { App } from "./app.js";
import "./styles.css";

// Its own chunk with supabase-js: loaded once a session or a screen needs it (session/engram-context.tsx).
let engram: Promise<Engram> | undefined;
const loadEngram = () => {
  engram ??= import("../session/engram.js").then((module) => module.createAppEngram());
  return engram;
};
// A returning visitor's session needs it at once: fetch it beside the first screen's chunk, not after the first render.
if (hasStoredSession()) void loadEngram();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <App loadEngram={loadEngram} />
  </StrictMode>,
);
