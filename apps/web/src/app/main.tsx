import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    {/* Its own chunk with supabase-js: loaded once a session or a screen needs it (session/engram-context.tsx). */}
    <App loadEngram={() => import("../session/engram.js").then((module) => module.createAppEngram())} />
  </StrictMode>,
);
