/** Where a bundle is installed: for the user (every folder) or for one project. */
export const SCOPES = ["user", "project"] as const;

export type Scope = (typeof SCOPES)[number];
