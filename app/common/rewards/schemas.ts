// Rewards and promotions forms (issue 25 items 1–2): the pages' queries and the staff console's campaign and code
// forms. Values as typed (text); the domain checks them (server/staff/promotions.ts) and answers with
// `rewards:errors.*` keys.
import * as z from "zod/mini";

const text = z.optional(z.string());

/** A history page past this is not reached by clicking: a bad link, refused with 400. */
export const REWARD_PAGE_MAX = 100_000;

/** GET /api/reward/history/load?page= */
export const rewardHistoryQuery = z.object({
  page: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,6}$/, { error: "rewards:errors.page-invalid" })),
      z.pipe(
        z.transform((v: string) => Number(v)),
        z
          .number()
          .check(
            z.minimum(1, { error: "rewards:errors.page-invalid" }),
            z.maximum(REWARD_PAGE_MAX, { error: "rewards:errors.page-invalid" }),
          ),
      ),
    ),
  ),
});

/** GET /api/users/{id}/reward-points?externalId= */
export const rewardPointsQuery = z.object({
  externalId: z.string().check(z.regex(/^[A-Za-z0-9-]{1,40}$/, { error: "rewards:errors.order-invalid" })),
});

/** Staff: a new campaign. */
export const staffCampaignForm = z.object({
  intent: text,
  name: text,
  description: text,
  highlighted: text,
  startsOn: text,
  endsOn: text,
});
export type StaffCampaignInput = z.output<typeof staffCampaignForm>;

/** Staff: a public code of a campaign (code blank: generated), or the deactivation of one (`codeId`). */
export const staffPromoCodeForm = z.object({
  intent: text,
  codeId: text,
  code: text,
  name: text,
  kind: text,
  percent: text,
  amount: text,
  startsOn: text,
  endsOn: text,
  maxUses: text,
  highlighted: text,
});
export type StaffPromoCodeInput = z.output<typeof staffPromoCodeForm>;
