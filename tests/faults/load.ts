// Steady load on a running portal for the fault tests (ADR 045): a few concurrent clients reading pages and the
// API, signing in, and writing what matters (orders placed, their invoices paid by card, manuscripts uploaded),
// each write carrying a unique marker so the database can be checked afterwards. Every answer is recorded with
// its time, so the test can say what was answered while a service was down and print a timeline.
import { randomBytes } from "node:crypto";
import { Client } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";

export interface Sample {
  /** Milliseconds since the load started, when the answer arrived. */
  at: number;
  ms: number;
  /** HTTP status, or 0 when the request failed without an answer (connection refused or reset). */
  status: number;
  what: string;
  path: string;
  retryAfter: string | null;
  /** The JSON body of an API 503 (it must be {error:"service-unavailable"}). */
  body503?: unknown;
}

/** One order placed and paid through the API, as the writer saw it. */
export interface WriteRecord {
  marker: string;
  uploaded: boolean;
  placed: boolean;
  externalId?: string;
  paid: boolean;
  invoiceNumber?: string;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Load {
  readonly samples: Sample[] = [];
  readonly writes: WriteRecord[] = [];
  readonly t0 = Date.now();
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(
    private base: string,
    private who: { email: string; password: string },
    /** A fresh researcher for each order (the upload limit counts per user); may fail while the database is down. */
    private nextWriter: () => Promise<{ email: string; password: string }>,
    /** Looks up the unpaid invoice number of a placed order (read from the database by the test). */
    private invoiceOf: (externalId: string) => Promise<string | undefined>,
    private ids: { usCountry: number; areaOfStudy: number },
  ) {}

  now() {
    return Date.now() - this.t0;
  }

  private async call(client: Client, what: string, path: string, init: RequestInit & { form?: Record<string, string> } = {}) {
    const started = Date.now();
    try {
      const res = await client.request(path, { ...init, signal: AbortSignal.timeout(10_000) });
      const sample: Sample = {
        at: this.now(),
        ms: Date.now() - started,
        status: res.status,
        what,
        path,
        retryAfter: res.headers.get("retry-after"),
      };
      const text = await res.text();
      if (res.status === 503 && path.startsWith("/api/")) sample.body503 = safeJson(text);
      this.samples.push(sample);
      return { status: res.status, text };
    } catch {
      this.samples.push({ at: this.now(), ms: Date.now() - started, status: 0, what, path, retryAfter: null });
      return { status: 0, text: "" };
    }
  }

  /** Sends until the answer is 2xx (a user retrying through an outage); gives up when the load stops and 20 s more passed. */
  private async until2xx(client: Client, what: string, path: string, init: () => RequestInit & { form?: Record<string, string> }) {
    for (;;) {
      const r = await this.call(client, what, path, init());
      if (r.status >= 200 && r.status < 300) return r;
      if (r.status >= 400 && r.status < 500) return r; // refused on its merits: retrying would not help
      if (!this.running && this.now() > this.stoppedAt + 20_000) return r;
      await pause(250);
    }
  }

  private stoppedAt = 0;

  start(): void {
    const anonymous = new Client(this.base);
    const reads = ["/en/login", "/cn/register", "/api/application", "/api/areas-of-study?q=bio", "/healthz"];
    for (let i = 0; i < 2; i++)
      this.loop(async (n) => {
        const path = reads[(n + i) % reads.length];
        await this.call(anonymous, `read ${path}`, path);
      }, 60);
    // A signed-in reader: its dashboard and the order search.
    this.loop(async (n, state: { client?: Client }) => {
      state.client ??= await this.signedIn();
      const path = n % 2 ? "/api/order/search?page=1" : "/en/researcher";
      await this.call(state.client, `member ${path.split("?")[0]}`, path);
    }, 80);
    // Sign-ins through the API and the page form, now and then a wrong password (failure counters, locks).
    this.loop(async (n) => {
      const client = new Client(this.base);
      const password = n % 5 === 4 ? "wrong-password-1" : this.who.password;
      if (n % 2)
        await this.call(client, "sign-in api", "/api/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: this.who.email, password }),
        });
      else await this.call(client, "sign-in page", "/en/login", { method: "POST", form: { email: this.who.email, password } });
    }, 150);
    for (let i = 0; i < 2; i++) this.loop(() => this.writeOne(), 100);
  }

  private loop<S extends object>(body: (n: number, state: S) => Promise<void>, gapMs: number) {
    this.loops.push(
      (async () => {
        const state = {} as S;
        for (let n = 0; this.running; n++) {
          try {
            await body(n, state);
          } catch {
            // a failed sign-in of the reader (Redis or PostgreSQL down): tried again on the next round
            delete (state as { client?: Client }).client;
          }
          await pause(gapMs);
        }
      })(),
    );
  }

  private async signedIn(who = this.who): Promise<Client> {
    const client = new Client(this.base);
    const r = await this.call(client, "sign-in api", "/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: who.email, password: who.password }),
    });
    if (r.status !== 200) throw new Error(`sign-in: ${r.status}`);
    return client;
  }

  /** One order: a form, a manuscript upload, the steps, placed by bank transfer, its invoice paid by card. */
  private async writeOne(): Promise<void> {
    const marker = `fault-${randomBytes(5).toString("hex")}`;
    const record: WriteRecord = { marker, uploaded: false, placed: false, paid: false };
    // A failure here (the database is down) is retried by the loop on its next round.
    const client = await this.signedIn(await this.nextWriter());
    this.writes.push(record);
    const json = (method: string, body: unknown) => () => ({
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const created = await this.until2xx(client, "write form", "/api/order-form/new", () => ({ method: "GET" }));
    if (created.status !== 201 && created.status !== 200) return;
    const id: string = JSON.parse(created.text).orderForm.identity;
    const docx = new Uint8Array(await makeDocx(`Marker ${marker}: soil bacteria under drought, results and discussion. `.repeat(30)));
    const upload = await this.until2xx(client, "write upload", `/api/order-form/${id}/files`, () => {
      const fd = new FormData();
      fd.append("mainFiles", new Blob([docx]), `${marker}.docx`);
      return { method: "POST", body: fd };
    });
    record.uploaded = upload.status === 201;
    if (!record.uploaded) return;
    const steps: [string, string, unknown][] = [
      ["PUT", "basic-details", { customerGoal: "manuscript", wordCount: 3000, language: 1 }],
      ["PUT", "selected-service", { serviceIdentities: ["standard-editing"] }],
      ["PUT", "step", { step: "details" }],
      ["PUT", "details", { projectTitle: marker, areaOfStudyId: this.ids.areaOfStudy, styleOfEnglish: "american" }],
    ];
    for (const [method, step, body] of steps) {
      const r = await this.until2xx(client, `write ${step}`, `/api/order-form/${id}/${step}`, json(method, body));
      if (r.status >= 300) return;
    }
    const placed = await this.until2xx(
      client,
      "write place",
      `/api/order-form/${id}/payments`,
      json("POST", { paymentMethodId: 9, acceptedTermsAndConditions: true }),
    );
    if (placed.status !== 201 && placed.status !== 200) return;
    record.placed = true;
    record.externalId = JSON.parse(placed.text).order.externalId;
    let invoice: string | undefined;
    for (let tries = 0; !invoice && tries < 100; tries++) {
      invoice = await this.invoiceOf(record.externalId!).catch(() => undefined);
      if (!invoice) await pause(200);
    }
    if (!invoice) return;
    record.invoiceNumber = invoice;
    // One Idempotency-Key for every retry of this payment: the portal must charge it once.
    const key = `fault-pay-${marker}`;
    const paid = await this.until2xx(client, "write pay", "/api/payoff/payment", () => ({
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify({
        paymentMethodId: 3,
        acceptedTermsAndConditions: true,
        additionalData: { payoffReceiptCodes: [invoice] },
        creditCard: { nonce: `fake-valid-nonce~${marker}`, currency: "USD" },
        billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: this.ids.usCountry } },
      }),
    }));
    record.paid = paid.status === 200;
  }

  /** Stops starting new work and waits for every client to finish what it was doing. */
  async stop(): Promise<void> {
    this.running = false;
    this.stoppedAt = this.now();
    await Promise.all(this.loops);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
}

/** Requests per second by status class through a fault, with the fault's events marked. */
export function timeline(samples: Sample[], events: { at: number; label: string }[], from: number, to: number): string {
  const bucket = (s: Sample) =>
    s.status === 0 ? "no-answer" : s.status === 503 ? "503" : s.status >= 500 ? "5xx" : `${Math.floor(s.status / 100)}xx`;
  const columns = ["2xx", "3xx", "4xx", "503", "5xx", "no-answer"];
  const lines = [`   s | ${columns.map((c) => c.padStart(9)).join("")} | event`];
  for (let second = Math.floor(from / 1000); second <= Math.floor(to / 1000); second++) {
    const inSecond = samples.filter((s) => Math.floor(s.at / 1000) === second);
    const counts = columns.map((c) => String(inSecond.filter((s) => bucket(s) === c).length).padStart(9));
    const marks = events.filter((e) => Math.floor(e.at / 1000) === second).map((e) => e.label);
    lines.push(`${String(second).padStart(4)} | ${counts.join("")} | ${marks.join("; ")}`);
  }
  return lines.join("\n");
}
