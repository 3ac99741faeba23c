/** Starts the app and its local stack once for every browser test file (see app-server.ts). */
import type { TestProject } from "vitest/node";
import { startAppServer } from "./app-server.js";

export interface E2eContext {
  appUrl: string;
  stackUrl: string;
  anonKey: string;
  serviceRoleKey: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}

export default async function setup(project: TestProject) {
  const server = await startAppServer();
  const { appUrl, stackUrl, anonKey, serviceRoleKey } = server;
  project.provide("e2e", { appUrl, stackUrl, anonKey, serviceRoleKey });
  return () => server.close();
}
