/** Training a user's FSRS parameters on their review logs, on the device; out of the main entry for its wasm. */
export { type Evaluation, evaluateHistories, evaluateParameters } from "./evaluate";
export {
  type CardHistory,
  cardHistories,
  type StudyDayOptions,
  type TrainingItems,
  type TrainingLog,
  trainingItems,
} from "./items";
export {
  type OptimizeOptions,
  type OptimizeResult,
  OptimizerError,
  type OptimizerErrorCode,
  type OptimizerWasm,
  optimizeParameters,
} from "./train";
