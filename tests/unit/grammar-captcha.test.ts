// The grammar check's captcha (server/grammar-check/captcha.ts, ADR 070): the proof of work and the no-JavaScript
// question each pass once when right, and are refused when wrong, expired, replayed or tampered with. The spent
// table is a stand-in with the same insert-or-nothing rule as captcha_spent's primary key.
import { describe, expect, it } from "vitest";
import { solveChallenge } from "altcha-lib/v1";
import { newCaptchaChallenge, verifyCaptcha, CAPTCHA_TTL_SECONDS } from "../../server/grammar-check/captcha";
import { solveCaptcha, type CaptchaChallenge } from "../../app/common/grammar-check/captcha";

/** A db with just what verifyCaptcha uses: delete (sweep) and an insert that returns nothing on a duplicate key. */
function fakeDb() {
  const spent = new Set<string>();
  const chain = {
    where: () => chain,
    execute: async () => [],
  };
  const db = {
    deleteFrom: () => chain,
    insertInto: () => ({
      values: (row: { challenge_hash: string }) => ({
        onConflict: () => ({
          returning: () => ({
            executeTakeFirst: async () => {
              if (spent.has(row.challenge_hash)) return undefined;
              spent.add(row.challenge_hash);
              return { challenge_hash: row.challenge_hash };
            },
          }),
        }),
      }),
    }),
  };
  return { db, spent };
}

function context(secret = "test-secret") {
  const { db, spent } = fakeDb();
  return { ctx: { db, secrets: { cookieSecret: secret } } as never, spent };
}

async function powPayload(challenge: CaptchaChallenge): Promise<string> {
  const solution = await solveChallenge(challenge.altcha.challenge, challenge.altcha.salt, "SHA-256", challenge.altcha.maxnumber).promise;
  if (!solution) throw new Error("unsolvable");
  const { algorithm, challenge: c, salt, signature } = challenge.altcha;
  return Buffer.from(JSON.stringify({ algorithm, challenge: c, number: solution.number, salt, signature })).toString("base64");
}

describe("grammar-check captcha: proof of work", () => {
  it("a solved challenge passes once; the same solution again is a replay", async () => {
    const { ctx } = context();
    const challenge = await newCaptchaChallenge(ctx, { maxNumber: 2000 });
    const altcha = await powPayload(challenge);
    expect(await verifyCaptcha(ctx, { altcha })).toBe("ok");
    expect(await verifyCaptcha(ctx, { altcha })).toBe("captcha-invalid");
  });

  it("the browser's own solver (Web Crypto) gives a payload the server accepts", async () => {
    const { ctx } = context();
    const challenge = await newCaptchaChallenge(ctx, { maxNumber: 2000 });
    const altcha = await solveCaptcha(challenge.altcha);
    expect(altcha).not.toBeNull();
    expect(await verifyCaptcha(ctx, { altcha })).toBe("ok");
  });

  it("a wrong number, another key's challenge, a tampered expiry and garbage are refused", async () => {
    const { ctx } = context();
    const challenge = await newCaptchaChallenge(ctx, { maxNumber: 2000 });
    const good = JSON.parse(Buffer.from(await powPayload(challenge), "base64").toString());
    const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64");
    expect(await verifyCaptcha(ctx, { altcha: encode({ ...good, number: good.number + 1 }) })).toBe("captcha-invalid");
    // A later expiry in the salt changes what was signed.
    const salt = String(good.salt).replace(/expires=\d+/, `expires=${Math.floor(Date.now() / 1000) + 86400}`);
    expect(await verifyCaptcha(ctx, { altcha: encode({ ...good, salt }) })).toBe("captcha-invalid");
    expect(await verifyCaptcha(ctx, { altcha: "not base64 json" })).toBe("captcha-invalid");
    const other = context("another-secret").ctx;
    const foreign = await newCaptchaChallenge(other, { maxNumber: 2000 });
    expect(await verifyCaptcha(ctx, { altcha: await powPayload(foreign) })).toBe("captcha-invalid");
    // The untouched solution still works: nothing above spent it.
    expect(await verifyCaptcha(ctx, { altcha: encode(good) })).toBe("ok");
  });

  it("an expired challenge is refused", async () => {
    const { ctx } = context();
    const challenge = await newCaptchaChallenge(ctx, { maxNumber: 2000 });
    const altcha = await powPayload(challenge);
    const later = Date.now() + (CAPTCHA_TTL_SECONDS + 1) * 1000;
    expect(await verifyCaptcha(ctx, { altcha }, { now: later })).toBe("captcha-invalid");
  });
});

describe("grammar-check captcha: the question (no JavaScript)", () => {
  it("the right sum passes once; a replay is refused", async () => {
    const { ctx } = context();
    const { question } = await newCaptchaChallenge(ctx, { maxNumber: 10 });
    const fields = { captchaToken: question.token, captchaAnswer: ` ${question.a + question.b} ` };
    expect(await verifyCaptcha(ctx, fields)).toBe("ok");
    expect(await verifyCaptcha(ctx, fields)).toBe("captcha-invalid");
  });

  it("a wrong or non-numeric answer is refused and does not spend the token", async () => {
    const { ctx } = context();
    const { question } = await newCaptchaChallenge(ctx, { maxNumber: 10 });
    expect(await verifyCaptcha(ctx, { captchaToken: question.token, captchaAnswer: String(question.a + question.b + 1) })).toBe(
      "captcha-invalid",
    );
    expect(await verifyCaptcha(ctx, { captchaToken: question.token, captchaAnswer: "eleven" })).toBe("captcha-invalid");
    expect(await verifyCaptcha(ctx, { captchaToken: question.token, captchaAnswer: String(question.a + question.b) })).toBe("ok");
  });

  it("an expired or tampered token is refused", async () => {
    const { ctx } = context();
    const { question } = await newCaptchaChallenge(ctx, { maxNumber: 10 });
    const answer = String(question.a + question.b);
    const later = Date.now() + (CAPTCHA_TTL_SECONDS + 1) * 1000;
    expect(await verifyCaptcha(ctx, { captchaToken: question.token, captchaAnswer: answer }, { now: later })).toBe("captcha-invalid");
    const [expires, nonce, signature] = question.token.split(".");
    const longer = `${Number(expires) + 3600}.${nonce}.${signature}`;
    expect(await verifyCaptcha(ctx, { captchaToken: longer, captchaAnswer: answer })).toBe("captcha-invalid");
    expect(await verifyCaptcha(ctx, { captchaToken: `${expires}.${nonce}x.${signature}`, captchaAnswer: answer })).toBe("captcha-invalid");
    expect(await verifyCaptcha(ctx, { captchaToken: `${question.token}.extra`, captchaAnswer: answer })).toBe("captcha-invalid");
  });

  it("nothing posted is 'required'; half of the question is 'invalid'", async () => {
    const { ctx } = context();
    expect(await verifyCaptcha(ctx, {})).toBe("captcha-required");
    expect(await verifyCaptcha(ctx, { altcha: "  ", captchaToken: "", captchaAnswer: "" })).toBe("captcha-required");
    expect(await verifyCaptcha(ctx, { captchaAnswer: "7" })).toBe("captcha-invalid");
  });
});
