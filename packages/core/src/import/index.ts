export * from "./csv/index";
