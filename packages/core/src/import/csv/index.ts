export type { ColumnMapping, MappedNotes } from "./map";
export { mapColumns, readKind, suggestMapping } from "./map";
export type { AnkiTextHeaders, CsvIssue, Delimiter, ParsedDelimited, ParseOptions } from "./parse";
export { CsvImportError, delimiters, looksLikeHeader, parseDelimited, readAnkiHeaders } from "./parse";
