/** "1 note", "3 notes": how the deck screen counts notes in its notices and dialogs. */
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const notesCount = (count: number) => plural(count, "note");
