import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { CERTIFICATE_OWNERS } from "./fixtures/certificate-owners";

// Issue 11 §6: anyone verifies a certificate by its code without signing in; its owner adds the title and
// authors through the certificate panel's form (works without JavaScript), which makes the certificate viewable.
test.describe("certificates", () => {
  test("a visitor verifies a code; the owner adds title and authors", async ({ page, playwright, baseURL }, info) => {
    const owner = CERTIFICATE_OWNERS.find((o) => o.project === info.project.name)!;
    // The code, as the owner's order list shows it (an API context of its own: the page stays signed out).
    const api = await playwright.request.newContext({ baseURL });
    expect((await api.post("/api/auth/login", { data: { email: owner.email, password: owner.password } })).status()).toBe(200);
    const orders = (await (await api.get("/api/order/search")).json()).orders as {
      externalId: string;
      certificate: { code: string } | null;
    }[];
    const order = orders.find((o) => o.certificate)!;
    const code = order.certificate!.code;
    await api.dispose();

    // Signed out: the verification page, an empty code, then the code as printed (with dashes, lower case).
    await page.goto("/en/certificate");
    await page.locator("#main").getByRole("link", { name: "Verify a certificate" }).click();
    await expect(page).toHaveURL(/\/en\/certificate\/verify$/);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("Please enter a verification code.")).toBeVisible();
    await page.getByLabel("Verification code").fill(code.match(/.{4}/g)!.join("-").toLowerCase());
    await page.getByRole("button", { name: "Verify" }).click();
    const details = page.locator("table.certificate-details");
    await expect(details).toContainText(order.externalId);
    await expect(details).toContainText("Glaciers in retreat");
    await expect(page.locator("[data-certificate-incomplete]")).toContainText(
      "Please include the title and author(s) that you would like displayed on your certificate.",
    );
    const downloadAll = page.getByRole("link", { name: "Download all files" });
    await expect(downloadAll).toHaveAttribute("href", `/api/certificate/${code}/deliverables.zip`);
    // With JavaScript the button fetches the zip (showing its progress) and hands it over; without, a plain link.
    const download = page.waitForEvent("download");
    await downloadAll.click();
    expect((await download).suggestedFilename()).toBe(`Researcher Services Completed files ${order.externalId}.zip`);
    if (info.project.name === "js") await expect(page.getByText("Download complete.")).toBeVisible();

    // The owner signs in and fills in the certificate.
    await signIn(page, owner);
    await page.goto(`/en/certificate/edit/${code}`);
    await page.getByLabel("Title").fill("Glaciers in retreat, 1990–2020");
    await page.getByLabel("Authors").fill("Ada Lovelace, 李明");
    await page.getByRole("button", { name: "Save certificate details" }).click();
    await expect(page.getByText("Your certificate details have been updated.")).toBeVisible();
    await expect(page.locator("iframe.certificate-frame")).toHaveAttribute("src", `/api/certificate/${code}/pdf?display=inline`);

    // The verification page now shows them, with the certificate to view.
    await page.goto(`/en/certificate/verify?code=${code}`);
    await expect(details).toContainText("Ada Lovelace, 李明");
    await expect(details).toContainText("Glaciers in retreat, 1990–2020");
    await expect(page.getByRole("link", { name: "View certificate" })).toHaveAttribute("href", `/api/certificate/${code}/pdf`);
  });
});
