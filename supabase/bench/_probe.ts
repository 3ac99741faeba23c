import { openPglite } from "@engram/local-stack";
import { createScheduler } from "@engram/core";
console.log(typeof openPglite, typeof createScheduler);
