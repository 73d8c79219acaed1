// The two free-trial groups of the newer document platform (spec 3 §4 "Preferred group"): seeded with
// membership_displayed false, so the membership widget stays hidden for their members.
export const CURIE_FREE_TRIAL_GROUP_CODES = ["CURIE-FREE-TRIAL", "CURIE-FREE-TRIAL-CN"] as const;
