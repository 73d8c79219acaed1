// npm run bench: the built portal on real data next to a bare React
// renderToString page of similar size, measured with autocannon in the same
// run. Prints requests/s, p50 and p99 latency and the ratio to the baseline.
// Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_USERS, BENCH_USERS_SECONDS;
// WEB_CONCURRENCY (with DATABASE_URL and REDIS_URL) runs the portal as `npm start` would, in several processes.
import http from "node:http";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { startPortal } from "#server/boot";
import { readEnv } from "#server/env";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  bytes: number;
}

async function measure(name: string, url: string, opts: Partial<autocannon.Options> = {}): Promise<Result> {
  // Warm up (JIT, caches) before the measured run.
  await autocannon({ url, connections: 10, duration: 2, ...opts });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    bytes: Math.round(r.throughput.average / Math.max(r.requests.average, 1)),
  };
}

/**
 * Pages of plain React markup: /<bytes> renders one about that long. DESIGN §7 compares each page
 * with a bare renderToString page "of similar size", so every target gets a baseline of its own size.
 */
function baselineServer(): Promise<{ url: string; close(): void }> {
  const page = (bytes: number) => {
    const rows = Math.max(1, Math.round(bytes / 120));
    return h("html", { lang: "en-US" }, [
      h("head", { key: "h" }, [h("meta", { key: "c", charSet: "utf-8" }), h("title", { key: "t" }, "Baseline")]),
      h("body", { key: "b" }, [
        h(
          "header",
          { key: "hd" },
          h(
            "nav",
            null,
            ["Home", "Orders", "Account"].map((x) => h("a", { key: x, href: `/${x}` }, x)),
          ),
        ),
        h(
          "main",
          { key: "m" },
          h(
            "form",
            { method: "post" },
            Array.from({ length: rows }, (_, i) =>
              h("div", { key: i, className: "field" }, [
                h("label", { key: "l", htmlFor: `f${i}` }, `Field ${i}`),
                h("input", { key: "i", id: `f${i}`, name: `f${i}`, defaultValue: "" }),
              ]),
            ),
          ),
        ),
        h("footer", { key: "f" }, "Footer"),
      ]),
    ]);
  };
  const server = http.createServer((req, res) => {
    const bytes = Number((req.url ?? "/").slice(1)) || 15000;
    const html = "<!DOCTYPE html>" + renderToString(page(bytes));
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() }),
    ),
  );
}

/** Runs a target in its own process (so autocannon does not share its CPU) and waits for its URL. */
function child(args: string[], env: Record<string, string | undefined>): Promise<{ url: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", ...args], {
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
      const m = /BENCH_URL (\S+)/.exec(out) ?? /Researcher portal is running at (\S+?)\/?\n[\s\S]*Stop with Ctrl\+C/.exec(out);
      if (m) resolve({ url: m[1], proc });
    });
    proc.once("exit", (code) => reject(new Error(`bench target exited with ${code}: ${out}`)));
  });
}

async function serveTarget(kind: string) {
  if (kind === "baseline") {
    const b = await baselineServer();
    process.stdout.write(`BENCH_URL ${b.url}\n`);
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-"));
  const env = readEnv({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    CONFIG_RATE_LIMITS: JSON.stringify({
      signInPerMinute: 1e9,
      registrationsPerHour: 1e9,
      resetRequestsPerHour: 1e9,
      emailChecksPerHour: 1e9,
    }),
  });
  const portal = await startPortal({ env });
  process.on("SIGTERM", () =>
    portal.stop().then(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }),
  );
  process.stdout.write(`BENCH_URL ${portal.url}\n`);
}

/** First-load weight of a page: gzipped HTML (+CSS) and the gzipped JavaScript it loads, and any foreign origin it names. */
async function pageWeight(base: string, pathname: string, cookie?: string) {
  const html = await (await fetch(base + pathname, { headers: cookie ? { cookie } : {} })).text();
  const gz = (s: string | Buffer) => zlib.gzipSync(s).length;
  const js = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)) js.add(m[1]);
  for (const m of html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)) js.add(m[1]);
  const css = [...html.matchAll(/<link[^>]+href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]);
  let jsBytes = 0;
  for (const f of js) jsBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()));
  let cssBytes = 0;
  for (const f of css) cssBytes += gz(await (await fetch(base + f)).text());
  const foreign = [...html.matchAll(/(?:src|href|action)="((?:https?:)?\/\/[^"]+)"/g)].map((m) => m[1]);
  return { pathname, htmlCss: gz(html) + cssBytes, js: jsBytes, files: js.size, foreign };
}

/**
 * The wizard step as people use it: BENCH_USERS users (default 50) each submit a step (POST, 303, GET),
 * read the next page for a think time of 1 to 3 s, and submit again. Returns the latency of whole steps.
 * DESIGN §7's "50 concurrent users" are modelled this way; the closed-loop autocannon run above is the
 * saturation figure (every connection re-submitting the instant its page arrives).
 */
async function usersStepping(
  base: string,
  cookies: string[],
  seconds: number,
): Promise<{ steps: number; p50: number; p99: number; max: number; errors: number }> {
  const users = cookies.length;
  const latencies: number[] = [];
  let errors = 0;
  // Steps in the first 4 s (users arriving, first renders of each draft) are not counted, as in any load test's ramp-up.
  const countFrom = Date.now() + 4000;
  const until = countFrom + seconds * 1000;
  const user = async (cookie: string, i: number) => {
    // Users arrive spread over the first think time, not all in the same millisecond.
    await new Promise((r) => setTimeout(r, (i / users) * 2000));
    while (Date.now() < until) {
      const started = performance.now();
      try {
        const post = await fetch(`${base}/en/researcher/submit/manuscript-services`, {
          method: "POST",
          redirect: "manual",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: "toggle=premium-editing",
        });
        await post.arrayBuffer();
        const get = await fetch(base + (post.headers.get("location") ?? "/en/researcher/submit/manuscript-services"), {
          headers: { cookie },
        });
        await get.arrayBuffer();
        if (post.status !== 303 || get.status !== 200) errors++;
        if (Date.now() >= countFrom) latencies.push(performance.now() - started);
      } catch {
        errors++;
      }
      await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000));
    }
  };
  await Promise.all(cookies.map((c, i) => user(c, i)));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { steps: latencies.length, p50: at(0.5), p99: at(0.99), max: Math.round(latencies[latencies.length - 1] ?? 0), errors };
}

/**
 * How long the invoice PDFs of five invoices take on their first download (each rendered in the PDF pool, then
 * cached): GET /api/invoice/{n}/pdf, milliseconds each. The pool is warmed by one render before.
 */
async function firstInvoicePdf(base: string, cookie: string): Promise<number[]> {
  const load = await (await fetch(`${base}/api/invoice/load?page=2`, { headers: { cookie } })).json();
  const numbers: string[] = load.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber).slice(0, 6);
  const times: number[] = [];
  for (const n of numbers) {
    const started = performance.now();
    const r = await fetch(`${base}/api/invoice/${n}/pdf`, { headers: { cookie } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`invoice PDF ${n}: ${r.status}`);
    times.push(Math.round(performance.now() - started));
  }
  return times.slice(1);
}

/**
 * A signed-in researcher with `count` placed orders (the dashboard's first page is 30): registered and ordering
 * through the JSON API as a browser would, each order with its uploaded .docx and bank-transfer invoice. Its cookie.
 */
async function researcherWithOrders(base: string, count: number): Promise<string> {
  const email = `bench-${Date.now()}@example.org`;
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email,
      password: "Bench#Researcher-2026",
      firstName: "Bench",
      lastName: "Researcher",
      countryCode: "US",
      phoneNumber: "2025550123",
      country: "US",
      currency: "USD",
      language: "en",
      agreeToTOS: true,
    }),
  });
  if (reg.status !== 201) throw new Error(`bench researcher: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("sid="))
    .join("; ");
  const docxPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-docx-")), "paper.docx");
  spawnSync(process.execPath, ["scripts/make-docx.mjs", docxPath], { stdio: "ignore" });
  const docx = fs.readFileSync(docxPath);
  const json = (method: string, pathname: string, body?: unknown) =>
    fetch(base + pathname, {
      method,
      headers: { cookie, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const area = (await (await json("GET", "/api/areas-of-study?q=bio")).json()).areas[0].id;
  for (let i = 0; i < count; i++) {
    const id = (await (await json("GET", "/api/order-form/new")).json()).orderForm.identity;
    const fd = new FormData();
    fd.append("mainFiles", new Blob([docx]), "paper.docx");
    await fetch(`${base}/api/order-form/${id}/files`, { method: "POST", headers: { cookie }, body: fd });
    await json("PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 3000, language: 1 });
    await json("PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: [i % 3 ? "standard-editing" : "premium-editing"] });
    await json("PUT", `/api/order-form/${id}/step`, { step: "details" });
    await json("PUT", `/api/order-form/${id}/details`, {
      projectTitle: `Bench order ${i + 1}`,
      areaOfStudyId: area,
      styleOfEnglish: "american",
    });
    const placed = await json("POST", `/api/order-form/${id}/payments`, { paymentMethodId: 9, acceptedTermsAndConditions: true });
    if (placed.status !== 201) throw new Error(`bench order ${i + 1}: ${placed.status} ${await placed.text()}`);
  }
  return cookie;
}

async function main() {
  const target = process.argv[2];
  if (target) return serveTarget(target);
  // WEB_CONCURRENCY (with DATABASE_URL and REDIS_URL): the portal as `npm start` runs it, in several processes.
  const clustered = Number(process.env.WEB_CONCURRENCY ?? 1) > 1 || process.env.WEB_CONCURRENCY === "auto";
  const portal = clustered
    ? await child(["scripts/start.ts"], {
        PORT: String(3400 + Math.floor(Math.random() * 500)),
        LOG_LEVEL: "warn",
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-")),
        CONFIG_RATE_LIMITS: JSON.stringify({
          signInPerMinute: 1e9,
          registrationsPerHour: 1e9,
          resetRequestsPerHour: 1e9,
          emailChecksPerHour: 1e9,
        }),
      })
    : await child(["scripts/bench.ts", "portal"], {});
  const baseline = await child(["scripts/bench.ts", "baseline"], {});
  const health = await (await fetch(`${portal.url}/healthz`)).json();

  console.log(
    `\nBenchmark: ${SECONDS}s per target, ${CONNECTIONS} connections, ${os.cpus().length} CPUs, database ${health.database.kind}, redis ${health.redis.configured ? "yes" : "no"}, portal processes: ${clustered ? process.env.WEB_CONCURRENCY : 1}`,
  );

  // Order-form drafts, one per connection (each with its own draft cookie), already at the services step.
  const drafts: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const r = await fetch(`${portal.url}/en/researcher/submit/new`, { redirect: "manual" });
    const cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.startsWith("draft="))!;
    await fetch(`${portal.url}/en/researcher/submit/get-started`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=next&customerGoal=manuscript&uploadFilesLater=on&wordCount=3000&languageId=1",
    });
    await fetch(`${portal.url}/en/researcher/submit/manuscript-services`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "toggle=standard-editing",
    });
    drafts.push(cookie);
  }
  let next = 0;
  const perConnection = (context: Record<string, string>) => (context.cookie ??= drafts[next++ % drafts.length]);
  const size = async (pathname: string, cookie?: string) =>
    Buffer.byteLength(await (await fetch(portal.url + pathname, { headers: cookie ? { cookie } : {} })).text());
  // The researcher dashboard (issue 11 §3, ADR 031): a signed-in researcher's first page of 30 orders.
  const researcher = await researcherWithOrders(portal.url, 30);
  const dashboardBytes = await size("/en/researcher", researcher);
  // The invoice list (issue 12 §4, ADR 037): the same researcher's 30 invoices, the first page of 10.
  const invoicesBytes = await size("/en/researcher/invoices", researcher);
  const loginBytes = await size("/en/login");
  const wizardBytes = await size("/en/researcher/submit/manuscript-services", drafts[0]);
  console.log(
    `Sign-in page ${loginBytes} bytes; wizard page ${wizardBytes} bytes; dashboard (30 orders) ${dashboardBytes} bytes; each is compared with a baseline page of its own size.\n`,
  );

  const results: (Result & { baseline?: number })[] = [];
  const baseLogin = await measure(`baseline ${Math.round(loginBytes / 1000)} kB`, `${baseline.url}${loginBytes}`);
  results.push(baseLogin);
  results.push({ ...(await measure("GET /en/login", `${portal.url}/en/login`)), baseline: baseLogin.rps });
  const baseWizard = await measure(`baseline ${Math.round(wizardBytes / 1000)} kB`, `${baseline.url}${wizardBytes}`);
  results.push(baseWizard);
  results.push({
    ...(await measure("GET wizard page + summary", `${portal.url}/en/researcher/submit/manuscript-services`, {
      requests: [
        {
          method: "GET",
          path: "/en/researcher/submit/manuscript-services",
          setupRequest: (req, context) => ({
            ...req,
            headers: { ...req.headers, cookie: perConnection(context as Record<string, string>) },
          }),
        },
      ],
    })),
    baseline: baseWizard.rps,
  });
  results.push({
    ...(await measure("wizard step POST→303→GET", `${portal.url}/en/researcher/submit/manuscript-services`, {
      requests: [
        {
          method: "POST",
          path: "/en/researcher/submit/manuscript-services",
          setupRequest: (req, context) => ({
            ...req,
            body: "toggle=premium-editing",
            headers: {
              ...req.headers,
              "content-type": "application/x-www-form-urlencoded",
              cookie: perConnection(context as Record<string, string>),
            },
          }),
        },
        {
          method: "GET",
          path: "/en/researcher/submit/manuscript-services",
          setupRequest: (req, context) => ({
            ...req,
            headers: { ...req.headers, cookie: perConnection(context as Record<string, string>) },
          }),
        },
      ],
    })),
    baseline: baseWizard.rps,
  });
  const baseDashboard = await measure(`baseline ${Math.round(dashboardBytes / 1000)} kB`, `${baseline.url}${dashboardBytes}`);
  results.push(baseDashboard);
  results.push({
    ...(await measure("GET dashboard (30 orders)", `${portal.url}/en/researcher`, { headers: { cookie: researcher } })),
    baseline: baseDashboard.rps,
  });
  const baseInvoices = await measure(`baseline ${Math.round(invoicesBytes / 1000)} kB`, `${baseline.url}${invoicesBytes}`);
  results.push(baseInvoices);
  results.push({
    ...(await measure("GET invoice list (10)", `${portal.url}/en/researcher/invoices`, { headers: { cookie: researcher } })),
    baseline: baseInvoices.rps,
  });
  results.push(await measure("GET /healthz", `${portal.url}/healthz`));
  const invoicePdfMs = await firstInvoicePdf(portal.url, researcher);

  const usersSeconds = Number(process.env.BENCH_USERS_SECONDS ?? 20);
  const stepping = await usersStepping(portal.url, drafts.slice(0, Number(process.env.BENCH_USERS ?? CONNECTIONS)), usersSeconds);

  console.log("\nFirst load (gzipped; budget: JS ≤ 100 KiB, HTML+CSS ≤ 60 KiB, no third-party origin)");
  for (const p of ["/en/login", "/en/register", "/en", "/cn/login/forgot-password", "/en/researcher/submit/manuscript-services"]) {
    const w = await pageWeight(portal.url, p, drafts[0]);
    console.log(
      `  ${p.padEnd(28)} JS ${(w.js / 1024).toFixed(1)} KiB in ${w.files} files; HTML+CSS ${(w.htmlCss / 1024).toFixed(1)} KiB; foreign origins: ${w.foreign.length}`,
    );
  }
  const dashboardWeight = await pageWeight(portal.url, "/en/researcher", researcher);
  console.log(
    `  ${"/en/researcher (30 orders)".padEnd(28)} JS ${(dashboardWeight.js / 1024).toFixed(1)} KiB in ${dashboardWeight.files} files; HTML+CSS ${(dashboardWeight.htmlCss / 1024).toFixed(1)} KiB; foreign origins: ${dashboardWeight.foreign.length}`,
  );
  const invoicesWeight = await pageWeight(portal.url, "/en/researcher/invoices", researcher);
  console.log(
    `  ${"/en/researcher/invoices".padEnd(28)} JS ${(invoicesWeight.js / 1024).toFixed(1)} KiB in ${invoicesWeight.files} files; HTML+CSS ${(invoicesWeight.htmlCss / 1024).toFixed(1)} KiB; foreign origins: ${invoicesWeight.foreign.length}`,
  );
  console.log("");

  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(pad("target", 28) + pad("req/s", 10) + pad("p50 ms", 9) + pad("p99 ms", 9) + pad("vs baseline", 13) + "errors/non-2xx");
  for (const r of results) {
    console.log(
      pad(r.name, 28) +
        pad(r.rps.toFixed(0), 10) +
        pad(String(r.p50), 9) +
        pad(String(r.p99), 9) +
        pad(r.baseline ? (r.rps / r.baseline).toFixed(2) : "", 13) +
        `${r.errors}/${r.non2xx}`,
    );
  }
  console.log(
    `\nwizard step (POST→303→GET), ${Number(process.env.BENCH_USERS ?? CONNECTIONS)} users thinking 1–3 s between steps, ${usersSeconds}s: ` +
      `${stepping.steps} steps, p50 ${stepping.p50} ms, p99 ${stepping.p99} ms, max ${stepping.max} ms, errors ${stepping.errors} (bar: p99 < 50 ms)`,
  );
  console.log(`one-page invoice PDF, first render (not cached): ${invoicePdfMs.map((ms) => `${ms} ms`).join(", ")} (bar: < 150 ms)`);
  for (const c of [portal, baseline]) {
    c.proc.removeAllListeners("exit");
    c.proc.kill("SIGTERM");
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
