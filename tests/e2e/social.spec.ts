// Social sign-in in the browser, with and without JavaScript, against the test OIDC server
// (tests/helpers/oidc-server.ts) on 127.0.0.1:3299. The e2e portal knows it as the demo
// provider when started with OAUTH_DEMO_ISSUER=http://127.0.0.1:3299 (server/auth/social.ts).
import { randomUUID } from "node:crypto";
import { expect, test, type BrowserContext } from "@playwright/test";
import {
  ensureOidcServer,
  encodeTestUser,
  releaseOidcServer,
  TEST_DENY_COOKIE,
  TEST_USER_COOKIE,
  type OidcServer,
  type OidcTestUser,
} from "../helpers/oidc-server";
import { uniqueEmail } from "./helpers";

const OIDC_PORT = 3299;
const OIDC_URL = `http://127.0.0.1:${OIDC_PORT}`;
// The demo provider's defaults (server/auth/social.ts: DEMO_DEFAULT_CLIENT_ID / _SECRET).
const CLIENT_ID = process.env.OAUTH_DEMO_CLIENT_ID || "portal-demo";
const CLIENT_SECRET = process.env.OAUTH_DEMO_CLIENT_SECRET || "portal-demo-secret";
const DEMO_NAME = process.env.OAUTH_DEMO_NAME || "Demo OIDC";

// Both projects' workers share the one server on the fixed port (each test picks its person by cookie):
// a test leases it, and the worker that started it stays until no test of another worker needs it.
let owned: OidcServer | null = null;
const leaseId = (info: { testId: string; retry: number; project: { name: string } }) => `${info.project.name}:${info.testId}:${info.retry}`;

test.beforeEach(async ({}, info) => {
  const base = String(info.project.use.baseURL);
  const { server } = await ensureOidcServer({
    port: OIDC_PORT,
    leaseId: leaseId(info),
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [`${base}/api/auth/opa/demo/callback`],
  });
  owned ??= server;
});

test.afterEach(async ({}, info) => {
  await releaseOidcServer(OIDC_URL, leaseId(info));
});

test.afterAll(async () => {
  if (!owned) return;
  test.setTimeout(150_000);
  const until = Date.now() + 130_000;
  while (owned.activeLeases() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  await owned.close();
  owned = null;
});

async function asPerson(context: BrowserContext, user: OidcTestUser) {
  await context.addCookies([{ name: TEST_USER_COOKIE, value: encodeTestUser(user), url: OIDC_URL }]);
}

test.describe("social sign-in", () => {
  test("new person: provider, prefilled registration, signed in; the next time straight in", async ({ page, context }) => {
    const email = uniqueEmail("social");
    await asPerson(context, { sub: `e2e-${randomUUID()}`, email, email_verified: true, given_name: "Grace", family_name: "Hopper" });

    await page.goto("/en/login?redirect=%2Fen%2Fresearcher%2Finvoices");
    const button = page.locator('a[data-provider="demo"]');
    // tests/e2e/serve.ts starts the portal with OAUTH_DEMO_ISSUER pointing at this spec's provider.
    await expect(button).toHaveCount(1);
    await expect(button).toHaveAccessibleName(`Continue with ${DEMO_NAME}`);
    await expect(button).toHaveAttribute("href", "/api/auth/opa/demo?redirect=%2Fen%2Fresearcher%2Finvoices");
    await button.click();

    // Auto-approved at the provider, back on the registration page with the provider's details.
    await expect(page).toHaveURL(/\/en\/register\/confirm\/[A-Za-z0-9_-]+\?redirect=%2Fen%2Fresearcher%2Finvoices$/);
    await expect(page.locator('input[name="firstName"]')).toHaveValue("Grace");
    await expect(page.locator('input[name="lastName"]')).toHaveValue("Hopper");
    await expect(page.getByText(email)).toBeVisible();
    await page.locator('input[name="password"]').fill("Grace#Hopper1906");
    await page.locator('input[name="phoneNumber"]').fill("2025550199");
    await page.locator('input[name="agreeToTOS"]').check();
    await page.locator('form.stack button[type="submit"]').click();

    await expect(page).toHaveURL(/\/en\/researcher\/invoices$/);
    await expect(page.getByText("Signed in as Grace Hopper")).toBeVisible();

    // A new visit without the session: the linked identity signs straight in.
    await context.clearCookies({ name: "sid" });
    await page.goto("/en/login");
    await page.locator('a[data-provider="demo"]').click();
    await expect(page).toHaveURL(/\/en\/researcher$/);
    await expect(page.getByText("Signed in as Grace Hopper")).toBeVisible();
  });

  test("denied consent shows the failure message and keeps the redirect", async ({ page, context }) => {
    await asPerson(context, {
      sub: `e2e-${randomUUID()}`,
      email: uniqueEmail("denied"),
      email_verified: true,
      given_name: "Alan",
      family_name: "Turing",
    });
    await context.addCookies([{ name: TEST_DENY_COOKIE, value: "1", url: OIDC_URL }]);
    await page.goto("/jp/login?redirect=%2Fjp%2Fresearcher");
    const button = page.locator('a[data-provider="demo"]');
    // tests/e2e/serve.ts starts the portal with OAUTH_DEMO_ISSUER pointing at this spec's provider.
    await expect(button).toHaveCount(1);
    await expect(button).toHaveAccessibleName(`${DEMO_NAME} で続ける`);
    await button.click();
    await expect(page).toHaveURL(/\/jp\/login\/failure\/oauth-failure\?redirect=%2Fjp%2Fresearcher$/);
    await expect(page.getByRole("alert")).toContainText("このサービスではログインできませんでした");
  });
});
