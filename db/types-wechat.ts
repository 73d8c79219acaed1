// Tables of WeChat QR sign-in (see db/migrations/0005_wechat.ts).
export interface WechatTables {}
