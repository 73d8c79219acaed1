// Tables of social sign-in (see db/migrations/0004_social.ts).
export interface SocialTables {}
