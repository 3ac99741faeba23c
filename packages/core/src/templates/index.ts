export { clozeFieldNames, referencedFieldNames, rendersWithFields, templateOrdinals } from "./cardgen";
export { renderClozeField } from "./cloze-filter";
export { fieldIsEmpty, nonEmptyNames, specialFields } from "./fields";
export type { ParsedTemplate, TemplateError, TemplateNode } from "./parse";
export { parseTemplate, trimAnki } from "./parse";
export type { FieldRenames } from "./rename-field";
export { renameFieldInTemplates, renameFieldsInTemplate } from "./rename-field";
export type { SpecialFieldValues, TemplateContext } from "./render";
export { renderNodes, renderTemplate, stripTags } from "./render";
