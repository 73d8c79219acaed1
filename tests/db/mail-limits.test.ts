// Transactional mail limits (issue 10 §4): per recipient and per account, for every sender.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { MAIL_LIMIT_DEFAULTS, listOutbox, sendMail } from "../../server/mail";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const message = (to: string, userId: number | null) => ({ to, subject: "s", text: "t", template: "test", lang: "en", userId });

describe("mail limits", () => {
  it("stop mail to one recipient after the limit, writing nothing", async () => {
    const to = "flooded@example.org";
    for (let i = 0; i < MAIL_LIMIT_DEFAULTS.mailPerRecipientPerHour; i++)
      expect((await sendMail(t.ctx, message(to, null))).status).toBe("queued");
    const over = await sendMail(t.ctx, message("Flooded@Example.org", null));
    expect(over).toMatchObject({ status: "limited", id: null });
    expect(await listOutbox(t.ctx, { to })).toHaveLength(MAIL_LIMIT_DEFAULTS.mailPerRecipientPerHour);
  });

  it("stop mail on one account's behalf after the limit, whatever the recipients", async () => {
    const user = await createResearcher(t.ctx);
    for (let i = 0; i < MAIL_LIMIT_DEFAULTS.mailPerUserPerHour; i++)
      expect((await sendMail(t.ctx, message(`r${i}@example.org`, user.id))).status).toBe("queued");
    expect((await sendMail(t.ctx, message("another@example.org", user.id))).status).toBe("limited");
  });

  it("let mail the portal sends of its own accord through", async () => {
    const to = "notified@example.org";
    for (let i = 0; i < MAIL_LIMIT_DEFAULTS.mailPerRecipientPerHour + 2; i++)
      expect((await sendMail(t.ctx, { ...message(to, null), unlimited: true })).status).toBe("queued");
  });
});
