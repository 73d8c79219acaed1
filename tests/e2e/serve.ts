// The portal for the browser suite: a fresh embedded database (or a fresh
// PostgreSQL database when DATABASE_URL is set), built app, demo data.
import fs from "node:fs";
import path from "node:path";
import { startPortal } from "../../server/boot";
import { readEnv } from "../../server/env";
import { freshDatabase } from "../helpers/template";
import { RELAXED_RATE_LIMITS } from "../helpers/portal";

async function main() {
  // E2E_NAME tells apart the portals of one run (the second one runs with other feature flags).
  const name = process.env.E2E_NAME ?? "e2e";
  const dataDir = path.resolve(`.tmp/${name}-data`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const databaseUrl = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, name.replace(/-/g, "_")) : undefined;
  const env = readEnv({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `${name}:${process.pid}:`,
    LOG_LEVEL: "warn",
    // No SMTP here: whole messages (reset links) are kept for their recipients in this folder (ADR 018).
    MAIL_PICKUP_DIR: path.join(dataDir, "mail"),
    // Demo OIDC provider for tests/e2e/social.spec.ts (its test server listens on 3299).
    OAUTH_DEMO_ISSUER: process.env.OAUTH_DEMO_ISSUER ?? "http://127.0.0.1:3299",
    // tests/e2e/wechat.spec.ts signs in through the WeChat sandbox, which runs only when asked for (ADR 024).
    WECHAT_MODE: process.env.WECHAT_MODE ?? "sandbox",
    // The payment specs pay through the providers' sandboxes, which run only when asked for (ADR 053).
    PAYMENTS_MODE: process.env.PAYMENTS_MODE ?? "sandbox",
    // Digital translation's sandbox (Chinese, ADR 072) runs only when asked for, like the payment sandboxes.
    TRANSLATION_MODE: process.env.TRANSLATION_MODE ?? "sandbox",
    // Many sign-ins come from one address in a short time here.
    CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS),
  });
  const portal = await startPortal({ env });
  // Certified orders for tests/e2e/certificate.spec.ts (staff work the browser cannot do).
  await (await import("./fixtures/certificates")).seedCertificateFixtures(portal.ctx);
  // Completed, paid orders for tests/e2e/rework.spec.ts (a re-edit needs one).
  await (await import("./fixtures/rework")).seedReworkFixtures(portal.ctx);
  // A waiting Alipay payment for tests/e2e/payment-sandbox.spec.ts (the payment form is another page's).
  await (await import("./fixtures/payments")).seedPaymentFixtures(portal.ctx);
  // Paid prepayments for tests/e2e/spend-balances.spec.ts (the prepay pages are another area's).
  await (await import("./fixtures/spend")).seedSpendFixtures(portal.ctx);
  // Paid CN invoices and a Chinese researcher on the US site for tests/e2e/fapiao.spec.ts (issue 13 §4).
  await (await import("./fixtures/fapiao")).seedFapiaoFixtures(portal.ctx);
  // A PayPal order abandoned and cancelled by the recovery job, and balances beside an unpaid invoice, for
  // tests/e2e/issue21-journey.spec.ts (issue 21 "Done when").
  await (await import("./fixtures/issue21")).seedIssue21Fixtures(portal.ctx);
  process.stdout.write(`e2e portal at ${portal.url}\n`);
  const stop = () => portal.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
