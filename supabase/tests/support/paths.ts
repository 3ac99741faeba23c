import { fileURLToPath } from "node:url";

export const supabaseDir = fileURLToPath(new URL("../../", import.meta.url));
