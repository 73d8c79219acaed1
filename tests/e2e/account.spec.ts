import { expect, test, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { guardThirdParty, newResearcher, registerResearcher, SEEDED_STAFF, signIn, uniqueEmail } from "./helpers";

/** The text of the newest message the e2e portal kept for `to` in its mail pickup folder (no SMTP in the suite). */
function recipientMail(to: string): string {
  const dir = path.resolve(`.tmp/${process.env.E2E_NAME ?? "e2e"}-data/mail`);
  const mails = fs
    .readdirSync(dir)
    .sort()
    .reverse()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { to: string; text: string });
  return mails.find((m) => m.to === to)!.text;
}

const register = (page: Page, lang: string, email: string, password: string) => registerResearcher(page, lang, { email, password });

test.describe("accounts", () => {
  test("two-stage registration in Spanish", async ({ page, baseURL, request }) => {
    const check = guardThirdParty(page, baseURL!);
    const email = uniqueEmail("curie");
    const existing = await newResearcher(request);
    // An existing address stops at stage one with the message of spec 1 §8.
    await page.goto("/es/register");
    await page.locator('input[name="email"]').fill(existing.email);
    await page.locator("form.stack button[type=submit]").click();
    await expect(page.getByText("Ya existe una cuenta con esta dirección de correo electrónico.")).toBeVisible();
    await register(page, "es", email, "marie-curie-1867");
    await expect(page).toHaveURL(/\/es\/researcher$/);
    // The header and the sub-navigation's welcome both name her.
    await expect(page.getByText("Marie Curie").first()).toBeVisible();
    check();
  });

  test("registration errors in Chinese, phone capped at 11 digits", async ({ page }) => {
    await page.goto("/cn/register");
    await page.locator('input[name="email"]').fill(uniqueEmail("wang"));
    await page.locator("form.stack button[type=submit]").click();
    await expect(page.locator('input[name="password"]')).toBeVisible();
    await expect(page.locator('select[name="countryCode"]')).toHaveValue("CN");
    await expect(page.locator('input[name="phoneNumber"]')).toHaveAttribute("maxlength", "11");
    await page.locator('input[name="password"]').fill("short");
    await page.locator("form.stack button[type=submit]").click();
    await expect(page.locator(".field-error", { hasText: "密码长度至少为 8 个字符。" })).toBeVisible();
    await expect(page.locator(".field-error", { hasText: "请输入您的名。" })).toBeVisible();
    await expect(page.locator(".field-error", { hasText: "请接受服务条款后继续。" })).toBeVisible();
  });

  test("password reset through the e-mailed link", async ({ page, browser }) => {
    const email = uniqueEmail("reset");
    await register(page, "en", email, "first-password-1");
    await expect(page).toHaveURL(/\/en\/researcher$/);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/en\/logout\?done=1&t=[\w.-]+$/);
    await page.goto("/en/login");
    await page.getByRole("link", { name: "Can't sign in?" }).click();
    await expect(page).toHaveURL(/\/en\/login\/forgot-password$/);
    await page.locator('input[name="email"]').fill(email);
    await page.locator("form.stack button[type=submit]").click();
    await expect(page.getByText("If an account exists for that address")).toBeVisible();

    // Support staff see the message in the outbox, its link redacted: only the recipient gets it (ADR 018).
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await signIn(staff, SEEDED_STAFF);
    await staff.goto(`/en/staff/outbox?to=${encodeURIComponent(email)}`);
    await staff
      .getByRole("link", { name: /Reset your Researcher Services password/ })
      .first()
      .click();
    const body = await staff.locator(".mail-body").innerText();
    expect(body).toContain("[redacted]");
    expect(body).not.toContain("/reset-password/");
    await staffContext.close();
    // No SMTP here: the recipient's copy is in the portal's mail pickup folder (tests/e2e/serve.ts).
    const link = /https?:\/\/\S+/.exec(recipientMail(email))![0];

    await page.goto(new URL(link).pathname);
    await page.locator('input[name="password"]').fill("second-password-2");
    await page.locator("form.stack button[type=submit]").click();
    await expect(page).toHaveURL(/\/en\/researcher\?passwordReset=1$/);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/en\/logout\?done=1&t=[\w.-]+$/);
    await signIn(page, { email, password: "second-password-2" });
    await expect(page).toHaveURL(/\/en\/researcher$/);
    // The link works once.
    await page.goto(new URL(link).pathname);
    await expect(page.getByText("This password reset link has expired or has already been used.")).toBeVisible();
  });

  test("saved addresses: add with a state, edit, delete (Portuguese)", async ({ page }) => {
    const email = uniqueEmail("addr");
    await register(page, "br", email, "address-pass-1");
    await expect(page).toHaveURL(/\/br\/researcher$/);
    await page.goto("/br/account/addresses");
    await page.getByRole("link", { name: "Adicionar endereço" }).click();
    await page.locator('input[name="name"]').fill("Marie Curie");
    await page.locator('input[name="address1"]').fill("Av. Paulista, 1000");
    await page.locator('input[name="city"]').fill("São Paulo");
    await page.locator('select[name="country"]').selectOption("BR");
    if (test.info().project.name === "nojs") {
      // Without JavaScript the state list follows the country after a round trip.
      await page.getByRole("button", { name: "Mostrar os estados deste país" }).click();
    }
    await page.locator('select[name="state"]').selectOption("SP");
    await page.locator('input[name="zip"]').fill("01310-100");
    await page.getByRole("button", { name: "Salvar endereço" }).click();
    await expect(page).toHaveURL(/\/br\/account\/addresses\?saved=1$/);
    await expect(page.getByText("O endereço foi salvo.")).toBeVisible();
    await expect(page.locator(".address-card")).toContainText("São Paulo");
    await page.getByRole("link", { name: "Editar" }).click();
    await page.locator('input[name="city"]').fill("Campinas");
    await page.getByRole("button", { name: "Salvar endereço" }).click();
    await expect(page.locator(".address-card")).toContainText("Campinas");
    await page.locator(".address-card summary").click();
    await page.getByRole("button", { name: "Sim, excluir" }).click();
    await expect(page.getByText("O endereço foi excluído.")).toBeVisible();
    await expect(page.locator(".address-card")).toHaveCount(0);
  });

  test("account details update", async ({ page }) => {
    const email = uniqueEmail("details");
    await register(page, "en", email, "details-pass-1");
    await page.goto("/en/account");
    await page.locator('input[name="institution"]').fill("Sorbonne");
    await page.locator('input[name="orcid"]').fill("not-an-orcid");
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.locator(".field-error", { hasText: "Please enter an ORCID iD like 0000-0002-1825-0097." })).toBeVisible();
    await page.locator('input[name="orcid"]').fill("0000-0002-1825-0097");
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByText("Your details have been saved.")).toBeVisible();
    await expect(page.locator('input[name="institution"]')).toHaveValue("Sorbonne");
  });
});
