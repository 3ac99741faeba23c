/** Simulating a year of a user's reviews, and the desired retention that costs least per card remembered. */
export {
  type AnswerCosts,
  defaultAnswerCosts,
  defaultFirstRatings,
  defaultRecallRatings,
  type Recommendation,
  type RetentionCost,
  recommendationRange,
  recommendRetention,
  type SimulatedCard,
  type SimulatedDay,
  type Simulation,
  type SimulationInput,
  simulateWorkload,
} from "./simulate";
