/**
 * Parts of css-tree on their own (the parser, generator and walker are a third
 * of the whole library, which also carries the CSS grammar's data; the tokenizer
 * is a fiftieth), typed as the whole.
 */
declare module "css-tree/parser" {
  const parse: typeof import("css-tree").parse;
  export default parse;
}
declare module "css-tree/generator" {
  const generate: typeof import("css-tree").generate;
  export default generate;
}
declare module "css-tree/walker" {
  const walk: typeof import("css-tree").walk;
  export default walk;
}
declare module "css-tree/tokenizer" {
  const tokenize: typeof import("css-tree").tokenize;

  export { tokenize };
}
