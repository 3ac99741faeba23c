export {
  EngramError,
  type EngramErrorCode,
  type EngramErrorOptions,
  engramErrorCodes,
  fromPostgrestError,
  type PostgrestErrorBody,
} from "./errors.js";
