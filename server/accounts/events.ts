// What the accounts area tells the areas above it (issue 25 item 3): a researcher registered, in the transaction
// that created the account, with the referral code the registration carried (the referral link's `referralCode`).
// Accounts is below referrals: it emits this and goes on; the referrals area records who referred (registered in
// server/event-handlers.ts). A handler's error rolls the registration back, so handlers refuse quietly.
import type { DB } from "../db";
import { defineEvent } from "../kernel/events";

export interface ResearcherRegistered {
  userId: number;
  /** As typed in the link (trimmed, at most 64 characters); null without one. */
  referralCode: string | null;
  email: string;
  ip: string;
}
export const researcherRegistered = defineEvent<DB, ResearcherRegistered>("researcher-registered");
