// WeChat QR sign-in's timings (ADR 004), below every server area: the auth area's provider uses them, and so does
// the binding cookie's lifetime in server/http/cookies.ts, which may load no area (ADR 059).

/** How long a QR code stays valid (the client polls 30 × 2 s = 60 s of it). */
export const WECHAT_QR_TTL_SECONDS = 120;
/** Once confirmed, how long the creating browser has to pick the sign-in up. */
export const WECHAT_PICKUP_SECONDS = 60;
