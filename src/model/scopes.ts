/** The scopes of the API document, §5 Authentication (exact values). */
export const SCOPES = [
  'read:agents',
  'write:agents',
  'read:tasks',
  'write:tasks',
  'read:usage',
  'read:analytics',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];
