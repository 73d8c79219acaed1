// Issue 22 item 2: the registration (verification) e-mail is in the account's language with its /{lang} link,
// whatever language the request that caused it came in (the API, an /en page).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { deliveredMail } from "../helpers/mail";
import { listOutbox } from "../../server/mail";
import { sendVerificationMail } from "../../server/accounts/email-verification";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("the verification e-mail's language", () => {
  it.each([
    ["cn", "确认"],
    ["br", "confirm"],
  ] as const)("is the %s account's with its own link (says %s), though the request was English", async (language, word) => {
    const user = await createResearcher(t.ctx, { language });
    await t.ctx.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", user.id).execute();
    expect(await sendVerificationMail(t.ctx, user.id, "en")).toBe("sent");
    const [row] = await listOutbox(t.ctx, { to: user.email });
    expect(row.lang).toBe(language);
    const [mail] = deliveredMail(t.ctx, user.email);
    expect(mail.text).toContain(`/${language}/verify-email/`);
    expect(mail.text).not.toContain("/en/verify-email/");
    expect(`${mail.subject}\n${mail.text}`.toLowerCase()).toContain(word);
  });
});
