const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value from the URL can be an id at all (every Engram id is a UUID). */
export const isId = (value: string): boolean => idPattern.test(value);
