export {
  FindReplaceError,
  type FindReplaceOptions,
  type FindReplaceProblem,
  type FindReplaceResult,
  findPattern,
  findReplace,
} from "./find-replace";
