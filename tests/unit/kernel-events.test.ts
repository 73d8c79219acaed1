// The typed event registry billing and payments emit through (server/kernel/events.ts, ADR 056).
import { describe, expect, it } from "vitest";
import { defineEvent } from "../../server/kernel/events";

describe("defineEvent", () => {
  it("runs every registered handler in order with the emitter's context, once each however often registered", async () => {
    const seen: string[] = [];
    const event = defineEvent<{ trx: string }, { n: number }>("test-event");
    const first = async (ctx: { trx: string }, p: { n: number }) => void seen.push(`first ${ctx.trx} ${p.n}`);
    event.on(first);
    event.on(first);
    event.on(async (ctx, p) => void seen.push(`second ${ctx.trx} ${p.n}`));
    expect(event.handlerCount).toBe(2);
    await event.emit({ trx: "t1" }, { n: 7 });
    expect(seen).toEqual(["first t1 7", "second t1 7"]);
  });

  it("makes a handler's error the emitter's (an in-transaction handler failing rolls the change back)", async () => {
    const event = defineEvent<null, null>("failing-event");
    event.on(async () => {
      throw new Error("handler failed");
    });
    await expect(event.emit(null, null)).rejects.toThrow("handler failed");
  });
});

describe("one event across copies of the module", () => {
  it("runs handlers registered on one copy when another copy emits (the Remix build bundles its own server/)", async () => {
    const { vi } = await import("vitest");
    const seen: number[] = [];
    const a = (await import("../../server/kernel/events")).defineEvent<null, number>("copied-event");
    a.on(async (_ctx, n) => void seen.push(n));
    vi.resetModules();
    const copy = await import("../../server/kernel/events");
    const b = copy.defineEvent<null, number>("copied-event");
    expect(copy.defineEvent).not.toBe(defineEvent);
    await b.emit(null, 5);
    expect(seen).toEqual([5]);
  });
});
