import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { guardThirdParty, jsEnabled, newResearcher, signIn } from "./helpers";

// WeChat QR sign-in in the sandbox (ADR 004, ADR 024; the e2e portal runs with WECHAT_MODE=sandbox):
// one browser context is the desktop that shows the QR code and its confirmation code, a second one is
// the "phone" (signed in to the portal) that opens the QR target, types the code and confirms. Runs in
// both projects: with JavaScript (fetch + polling) and without (self-refreshing page).

/** The phone: a separate context (its own cookies) with the project's JavaScript setting. */
async function phoneContext(browser: Browser, baseURL: string, info: TestInfo) {
  return browser.newContext({ baseURL, javaScriptEnabled: jsEnabled(info), locale: "en-US" });
}

/** The confirmation code the desktop shows beside the QR image. */
async function shownCode(page: Page): Promise<string> {
  const code = (await page.locator(".wechat-confirm-code-value").textContent()) ?? "";
  expect(code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
  return code;
}

/** The phone types the code (the scan) and sees whom it would sign in. */
async function typeCode(phonePage: Page, code: string) {
  await phonePage.getByLabel("Enter the code shown under the QR code").fill(code);
  await phonePage.getByRole("button", { name: "Continue" }).click();
}

/** Starts WeChat sign-in on the sign-in page and returns the QR target (the sandbox confirmation page) and the code. */
async function startOnDesktop(page: Page, info: TestInfo, query = ""): Promise<{ target: string; code: string }> {
  await page.goto(`/en/login${query}`);
  const panel = page.locator("section.wechat-login");
  // With JavaScript, wait until the panel has taken the form over (else the click would post it natively).
  if (jsEnabled(info)) await expect(panel).toHaveAttribute("data-enhanced", "true");
  await page.getByRole("button", { name: "Sign in with WeChat" }).click();
  if (!jsEnabled(info)) await expect(page).toHaveURL(/\/en\/login\/wechat\?code=[A-Za-z0-9_-]{43}/);
  else await expect(page).toHaveURL(/\/en\/login(\?|$)/); // stays on the sign-in page
  await expect(page.getByRole("img", { name: "QR code for signing in with WeChat" })).toBeVisible();
  await expect(page.getByText("Sandbox", { exact: true })).toBeVisible();
  const link = page.getByRole("link", { name: "Open the sandbox confirmation page" });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  expect(href).toMatch(/\/en\/login\/wechat\/confirm\/[A-Za-z0-9_-]{43}$/);
  return { target: href!, code: await shownCode(page) };
}

test.describe("WeChat QR sign-in (sandbox)", () => {
  test("the phone confirms and the browser that shows the QR code ends signed in", async ({ page, browser, baseURL, request }, info) => {
    const ada = await newResearcher(request);
    const check = guardThirdParty(page, baseURL!);
    const { target, code } = await startOnDesktop(page, info, "?redirect=%2Fen%2Fresearcher%2Finvoices");

    const phone = await phoneContext(browser, baseURL!, info);
    try {
      const phonePage = await phone.newPage();
      await signIn(phonePage, ada);
      await phonePage.goto(target);
      await expect(phonePage.getByRole("heading", { level: 1 })).toHaveText("Confirm WeChat sign-in");
      await typeCode(phonePage, code);
      await expect(phonePage.getByText(`Sign in as ${ada.name} on the device that shows the QR code?`)).toBeVisible();
      // Typing the code is the scan: the desktop says so (JavaScript polls; the no-JS page reloads).
      await expect(page.getByText("Scanned. Please confirm the sign-in on your phone.")).toBeVisible({ timeout: 10_000 });
      await phonePage.getByRole("button", { name: "Confirm sign-in" }).click();
      await expect(phonePage.getByText("The other device is being signed in")).toBeVisible();
    } finally {
      await phone.close();
    }

    await expect(page).toHaveURL(/\/en\/researcher\/invoices$/, { timeout: 10_000 });
    await expect(page.getByText(`Signed in as ${ada.name}`)).toBeVisible();
    check();
  });

  test("a phone that is not signed in signs in first and comes back to confirm", async ({ page, browser, baseURL, request }, info) => {
    const ada = await newResearcher(request);
    const { target, code } = await startOnDesktop(page, info);
    const phone = await phoneContext(browser, baseURL!, info);
    try {
      const phonePage = await phone.newPage();
      await phonePage.goto(target);
      await expect(phonePage.getByText("first sign in to your account on this device")).toBeVisible();
      await phonePage.locator("main").getByRole("link", { name: "Sign in", exact: true }).click();
      await expect(phonePage).toHaveURL(/\/en\/login\?redirect=/);
      await phonePage.locator('input[name="email"]').fill(ada.email);
      await phonePage.locator('input[name="password"]').fill(ada.password);
      await phonePage.locator('form.stack button[type="submit"]').click();
      await expect(phonePage).toHaveURL(new URL(target, baseURL).toString());
      await typeCode(phonePage, code);
      await phonePage.getByRole("button", { name: "Confirm sign-in" }).click();
      await expect(phonePage.getByText("The other device is being signed in")).toBeVisible();
    } finally {
      await phone.close();
    }
    // Without a redirect, the desktop goes to the home directory.
    await expect(page).toHaveURL(/\/en\/researcher$/, { timeout: 10_000 });
    await expect(page.getByText(`Signed in as ${ada.name}`)).toBeVisible();
  });

  test("cancelling on the phone stops the desktop with an error and a way to try again", async ({
    page,
    browser,
    baseURL,
    request,
  }, info) => {
    const ada = await newResearcher(request);
    const { target, code } = await startOnDesktop(page, info);
    const phone = await phoneContext(browser, baseURL!, info);
    try {
      const phonePage = await phone.newPage();
      await signIn(phonePage, ada);
      await phonePage.goto(target);
      await typeCode(phonePage, code);
      await phonePage.getByRole("button", { name: "Cancel" }).click();
      await expect(phonePage.getByText("Sign-in cancelled.")).toBeVisible();
    } finally {
      await phone.close();
    }
    const alert = page.getByRole("alert").filter({ hasText: "The sign-in was cancelled on the phone." });
    await expect(alert).toBeVisible({ timeout: 10_000 });
    await expect(alert.locator("svg.wechat-error-icon")).toBeVisible();
    // Polling (or reloading) has stopped: no QR code, no refresh, a fresh start is offered.
    await expect(page.getByRole("img", { name: "QR code for signing in with WeChat" })).toHaveCount(0);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("img", { name: "QR code for signing in with WeChat" })).toBeVisible();
  });

  test("the stand-alone WeChat page signs in too, and stops refreshing once left", async ({ page, browser, baseURL, request }, info) => {
    const ada = await newResearcher(request);
    await page.goto("/en/login/wechat?redirect=%2Fen%2Faccount");
    await page.getByRole("button", { name: "Sign in with WeChat" }).click();
    await expect(page).toHaveURL(/\/en\/login\/wechat\?code=[A-Za-z0-9_-]{43}&redirect=%2Fen%2Faccount$/);
    await expect(page.getByRole("img", { name: "QR code for signing in with WeChat" })).toBeVisible();
    const target = (await page.getByRole("link", { name: "Open the sandbox confirmation page" }).getAttribute("href"))!;
    const code = await shownCode(page);

    if (jsEnabled(info)) {
      // The <meta> refresh is stopped once JavaScript polls instead: leaving in-app stays left.
      await page.getByRole("link", { name: "Back to sign-in" }).click();
      await expect(page).toHaveURL(/\/en\/login\?redirect=%2Fen%2Faccount$/);
      await page.waitForTimeout(3000);
      await expect(page).toHaveURL(/\/en\/login\?redirect=%2Fen%2Faccount$/);
      // In-app history: a popstate, not a page load.
      await page.goBack({ waitUntil: "commit" });
      await expect(page.getByRole("img", { name: "QR code for signing in with WeChat" })).toBeVisible();
    }

    const phone = await phoneContext(browser, baseURL!, info);
    try {
      const phonePage = await phone.newPage();
      await signIn(phonePage, ada);
      await phonePage.goto(new URL(target, baseURL).toString());
      await typeCode(phonePage, code);
      await phonePage.getByRole("button", { name: "Confirm sign-in" }).click();
      await expect(phonePage.getByText("The other device is being signed in")).toBeVisible();
    } finally {
      await phone.close();
    }
    await expect(page).toHaveURL(/\/en\/account$/, { timeout: 10_000 });
    await expect(page.getByText(`Signed in as ${ada.name}`)).toBeVisible();
  });
});
