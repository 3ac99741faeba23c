/**
 * css-tree's parser, generator and walker on their own (a third of the whole
 * library, which also carries the CSS grammar's data), typed as the whole.
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
