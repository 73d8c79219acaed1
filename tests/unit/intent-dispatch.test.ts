// The one intent dispatcher of pages with several forms (app/lib/forms.server.ts, issue 21 §6): the staff pages
// answer each posted intent with its handler and every other intent with the page's 400.
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { dispatchIntent, onIntent } from "#app/lib/forms.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
};

describe("dispatchIntent", () => {
  const seen: unknown[] = [];
  const handlers = {
    rename: onIntent(z.object({ intent: z.literal("rename"), name: z.string().check(z.minLength(2)) }), ({ name }) => {
      seen.push(name);
      return new Response(null, { status: 303 });
    }),
    close: onIntent(z.object({ intent: z.literal("close") }), () => new Response(null, { status: 204 })),
  };
  const refuse = (intent: string) => Response.json({ refused: intent }, { status: 400 });

  it("runs the posted intent's handler with its parsed value, and no other", async () => {
    expect((await dispatchIntent(form({ intent: "rename", name: "Ada" }), handlers, refuse)).status).toBe(303);
    expect((await dispatchIntent(form({ intent: "close" }), handlers, refuse)).status).toBe(204);
    expect(seen).toEqual(["Ada"]);
  });

  it("answers a missing or unknown intent, or one named like an object's own property, with the page's refusal", async () => {
    for (const intent of [undefined, "", "shred", "toString", "__proto__", "constructor"]) {
      const r = await dispatchIntent(form(intent === undefined ? { name: "Ada" } : { intent, name: "Ada" }), handlers, refuse);
      expect([r.status, await r.json()]).toEqual([400, { refused: intent ?? "" }]);
    }
    expect(seen).toEqual(["Ada"]);
  });

  it("refuses a known intent whose form its schema refuses, before the handler runs", async () => {
    const r = await dispatchIntent(form({ intent: "rename", name: "A" }), handlers, refuse);
    expect([r.status, await r.json()]).toEqual([400, { refused: "rename" }]);
    expect(seen).toEqual(["Ada"]);
  });
});
