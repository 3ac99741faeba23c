/**
 * Query keys: one factory per resource, each key a tuple starting with the
 * resource name, so invalidating a prefix (`engramKeys.decks.all`) reaches
 * every query of that resource.
 */
export const engramKeys = {
  auth: {
    all: ["auth"] as const,
    user: () => [...engramKeys.auth.all, "user"] as const,
  },
  profile: {
    all: ["profile"] as const,
    detail: () => [...engramKeys.profile.all, "detail"] as const,
  },
  decks: {
    all: ["decks"] as const,
    list: () => [...engramKeys.decks.all, "list"] as const,
    detail: (deckId: string) => [...engramKeys.decks.all, "detail", deckId] as const,
    explore: (params: { search?: string; limit?: number; offset?: number }) =>
      [...engramKeys.decks.all, "explore", params] as const,
  },
} as const;
