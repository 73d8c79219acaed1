// Secrets the portal needs and was not given are generated once into
// DATA_DIR/secrets.json (mode 0600) so restarts keep sessions and signed cookies valid.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

export interface Secrets {
  cookieSecret: string;
}

export function loadSecrets(dataDir: string, given: { SESSION_SECRET?: string }): Secrets {
  const file = path.join(dataDir, "secrets.json");
  let stored: Partial<Secrets> = {};
  try {
    stored = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
  } catch {
    /* first start */
  }
  const secrets: Secrets = { cookieSecret: given.SESSION_SECRET ?? stored.cookieSecret ?? randomBytes(32).toString("base64url") };
  if (!given.SESSION_SECRET && stored.cookieSecret !== secrets.cookieSecret) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...stored, ...secrets }, null, 2), { mode: 0o600 });
  }
  return secrets;
}
