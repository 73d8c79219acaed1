// The messages a recipient got when the portal has no SMTP: the mail pickup folder (server/mail, ADR 018).
// The outbox table keeps them with their secret parts redacted; tests that need a reset link read it here.
import fs from "node:fs";
import path from "node:path";
import type { AppContext } from "../../server/context";
import { mailPickupDir } from "../../server/mail";

export interface DeliveredMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  template: string;
  lang: string;
}

/** The messages kept for `to` (every recipient without it), newest first. */
export function deliveredMail(ctx: Pick<AppContext, "env">, to?: string): DeliveredMail[] {
  const dir = mailPickupDir(ctx);
  if (!dir || !fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .reverse()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as DeliveredMail)
    .filter((m) => !to || m.to === to);
}
