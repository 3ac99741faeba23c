/** The CLI's database credentials, which the wire-protocol server asks for. */
export const wireCredentials = { user: "postgres", password: "postgres", database: "postgres" };
