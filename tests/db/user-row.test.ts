// The widgets' user row (server/accounts/user-row.ts, ADR 086): read once per read-only request, afresh in an
// action's request (which may write the row and read it again) and outside any request (jobs, this file).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, type TestUser } from "../helpers/factories";
import { userRowOf } from "../../server/accounts/user-row";
import { runInRequest } from "../../server/request-context";

let t: TestContext;
let user: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  user = await createResearcher(t.ctx);
});
afterAll(async () => t.close());

const setPoints = (points: number) => t.ctx.db.updateTable("users").set({ reward_points: points }).where("id", "=", user.id).execute();
const inRequest = <T>(method: string, fn: () => Promise<T>) =>
  runInRequest({ requestId: `test-${method}-${Math.random()}`, method, url: "/en/researcher" }, fn);

describe("the widgets' user row", () => {
  it("is read once per GET or HEAD request: every widget of the page sees the same row", async () => {
    for (const method of ["GET", "HEAD"]) {
      await setPoints(10);
      const [first, second] = await inRequest(method, async () => {
        const a = userRowOf(t.ctx, user.id);
        await a;
        await setPoints(20); // another request's write meanwhile: this page keeps the row it read
        return [await a, await userRowOf(t.ctx, user.id)];
      });
      expect(first?.reward_points).toBe(10);
      expect(second).toBe(first);
    }
    // The next request reads afresh.
    expect((await inRequest("GET", () => userRowOf(t.ctx, user.id)))?.reward_points).toBe(20);
  });

  it("is read afresh in an action's request and outside any request", async () => {
    await setPoints(30);
    const [before, after] = await inRequest("POST", async () => {
      const a = await userRowOf(t.ctx, user.id);
      await setPoints(40); // the action writes the row, then reads it again
      return [a, await userRowOf(t.ctx, user.id)];
    });
    expect([before?.reward_points, after?.reward_points]).toEqual([30, 40]);
    await setPoints(50);
    expect((await userRowOf(t.ctx, user.id))?.reward_points).toBe(50);
  });

  it("is undefined for a user that does not exist", async () => {
    expect(await inRequest("GET", () => userRowOf(t.ctx, 2_000_000_000))).toBeUndefined();
  });
});
