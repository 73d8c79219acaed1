import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { grammarCheckSettled, guardThirdParty, jsEnabled, newResearcher, reportShowsByItself, signIn } from "./helpers";
import { makePdf } from "../helpers/fixtures";
import { PLANTED, plantedDocx, unreadableDocx } from "./fixtures/grammar-manuscripts";

// The grammar check end to end (issue 23 "Done when"; ADR 071), with and without JavaScript, in English and Chinese:
// a researcher uploads a real .docx with known planted errors (two misspellings, a space before a comma, a doubled
// word), the portal's own worker checks it (jobs run in the web process here), the page notices by itself (polling
// with JavaScript, the noscript meta refresh without) and the report counts them by category and shows them in
// context; archive asks first and works; a check that could not complete is deleted after confirmation.
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const TEXT = {
  en: {
    badge: "Free tool",
    report: "Language Quality Report",
    spelling: "Consistency, spelling and typos",
    punctuation: "Punctuation",
    phrasing: "Phrasing",
    archived: (f: string) => `${f} archived`,
    deleted: (f: string) => `${f} deleted`,
    archive: "Archive",
    delete: "Delete",
    couldNotComplete: "could not complete",
  },
  cn: {
    badge: "免费工具",
    report: "语言质量报告",
    spelling: "一致性、拼写与笔误",
    punctuation: "标点",
    phrasing: "措辞",
    archived: (f: string) => `${f} 已归档`,
    deleted: (f: string) => `${f} 已删除`,
    archive: "归档",
    delete: "删除",
    couldNotComplete: "无法完成",
  },
} as const;

async function uploadFile(page: Page, name: string, buffer: Buffer) {
  await page.locator("#gc-file").setInputFiles({ name, mimeType: DOCX, buffer });
  await page.locator("form.gc-upload button[type=submit]").click();
}

/** axe (WCAG 2.1 AA, serious and critical) on the page as it is; with JavaScript only (axe is a script). */
async function expectAccessible(page: Page) {
  if (!jsEnabled(test.info())) return;
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect.soft(bad, `axe on ${page.url()}`).toEqual([]);
}

/** Counts per category as the issues chart states them in its title ("Punctuation 1, …"). */
async function chartCount(page: Page, label: string): Promise<number> {
  const title = (await page.locator(".issues-chart title").textContent()) ?? "";
  const m = title.match(new RegExp(`${label} (\\d+)`));
  return m ? Number(m[1]) : -1;
}

/** Archive or delete through the list: a <dialog> with JavaScript, the confirmation page without. */
async function confirmFromList(page: Page, fileName: string, label: string) {
  const row = page.locator(".assessment-row", { hasText: fileName });
  // Hydrated first (the empty form's button is disabled only by the page's script): a click before it would follow
  // the plain link to the confirmation page, the no-JavaScript path.
  if (jsEnabled(test.info())) await expect(page.locator("form.gc-upload button[type=submit]")).toBeDisabled({ timeout: 15_000 });
  await row.getByRole("link", { name: label, exact: true }).click();
  if (jsEnabled(test.info())) {
    const dialog = page.locator("dialog[open]");
    await expect(dialog).toContainText(fileName);
    await dialog.getByRole("button", { name: label, exact: true }).click();
  } else {
    await expect(page).toHaveURL(new RegExp(`/researcher/grammar-check/${label === "Delete" || label === "删除" ? "delete" : "archive"}/`));
    await expect(page.locator("h1")).toContainText(fileName);
    await page.locator("form.gc-confirm").getByRole("button", { name: label, exact: true }).click();
  }
}

for (const lang of ["en", "cn"] as const) {
  const t = TEXT[lang];
  test(`a researcher checks a manuscript with planted errors, archives it and deletes a failed check (${lang})`, async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const guard = guardThirdParty(page, baseURL!);
    if (jsEnabled(test.info())) await page.clock.install(); // the page's 30 s poll is moved on, not waited out
    const user = await newResearcher(request);
    await signIn(page, user, lang);
    await page.goto(`/${lang}/researcher/grammar-check`);
    await expect(page.locator(".gc-heading .badge")).toHaveText(t.badge);
    const submit = page.locator("form.gc-upload button[type=submit]");
    // Disabled with JavaScript until a file is chosen; never in the server's HTML.
    if (jsEnabled(test.info())) await expect(submit).toBeDisabled();
    else await expect(submit).toBeEnabled();

    // A PDF is refused on the file input: at once with JavaScript (and Begin Check stays disabled), by the server without.
    await page.locator("#gc-file").setInputFiles({ name: "paper.pdf", mimeType: "application/pdf", buffer: await makePdf("A paper.") });
    if (!jsEnabled(test.info())) await submit.click();
    else await expect(submit).toBeDisabled();
    await expect(page.locator("#gc-file-error")).toBeVisible();
    await expect(page.locator("#gc-file")).toHaveAttribute("aria-describedby", /gc-file-error/);

    const fileName = `planted-${lang}.docx`;
    await uploadFile(page, fileName, await plantedDocx());
    await expect(page).toHaveURL(new RegExp(`/${lang}/researcher/grammar-check/details/[0-9a-f-]{36}$`));
    await expect(page.locator("h1")).toHaveText(t.report);
    await expect(page.locator(".gc-file-name")).toHaveText(fileName);
    // The page updates itself once the worker is done (its 30 s poll, or its refresh without JavaScript).
    await reportShowsByItself(page);

    // The planted errors are counted by category …
    expect(await chartCount(page, t.spelling)).toBeGreaterThanOrEqual(PLANTED.misspellings.length);
    expect(await chartCount(page, t.punctuation)).toBeGreaterThanOrEqual(1);
    expect(await chartCount(page, t.phrasing)).toBeGreaterThanOrEqual(1);
    // … and shown in their sentences, the flagged span marked, with the suggestion.
    for (const word of PLANTED.misspellings) await expect(page.locator(".issue-sentence mark", { hasText: word })).toHaveCount(1);
    await expect(page.locator(".issue", { hasText: "protien" }).locator("ins")).toHaveText("protein");
    await expect(page.locator(".issue-sentence", { hasText: PLANTED.spaceBeforeComma }).first()).toBeVisible();
    await expect(page.locator(".issue-sentence mark", { hasText: PLANTED.doubledWord })).toHaveCount(1);
    await expect(page.locator(".percentile-chart")).toBeVisible();
    await expect(page.locator(".score-circle text").first()).toHaveText(/^\d[.,]\d$/);
    await expectAccessible(page);

    // Back to the list: the row links to its report; archive asks first.
    await page.locator(`a[href="/${lang}/researcher/grammar-check"]`).first().click();
    await expect(page.locator(".assessment-row", { hasText: fileName })).toBeVisible();
    await expectAccessible(page);
    await confirmFromList(page, fileName, t.archive);
    await expect(page.locator(".alert-success")).toHaveText(t.archived(fileName));
    await expect(page.locator(".assessment-row", { hasText: fileName })).toHaveCount(0);

    // A manuscript that cannot be read: 'could not complete', deleted after confirmation.
    const broken = `broken-${lang}.docx`;
    await uploadFile(page, broken, unreadableDocx());
    await expect(page).toHaveURL(/\/details\//);
    // The page's own refresh was seen above; here the test asks the API until the worker has failed it, then reloads
    // (30 s less per run of the suite).
    expect((await grammarCheckSettled(page)).failed).toBe(true);
    await page.reload();
    await expect(page.locator(".alert-danger")).toContainText(t.couldNotComplete);
    await page.goto(`/${lang}/researcher/grammar-check`);
    const row = page.locator(".assessment-row", { hasText: broken });
    await expect(row).toContainText(t.couldNotComplete);
    await confirmFromList(page, broken, t.delete);
    await expect(page.locator(".alert-success")).toHaveText(t.deleted(broken));
    await expect(page.locator(".assessment-row", { hasText: broken })).toHaveCount(0);
    guard();
  });
}
