// WeChat QR sign-in panel (filled in with the WeChat capability).
export function WechatLogin(_props: { redirect?: string | null; origin?: string | null }) {
  return null;
}
