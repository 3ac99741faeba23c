export { engramKeys } from "./keys.js";
export { engramMutations } from "./mutations.js";
export { engramQueries } from "./queries.js";
