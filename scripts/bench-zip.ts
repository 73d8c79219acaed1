// Memory of Download All (issue 11 §5, ADR 033): a portal in a child process gets an order with 500 MB of
// delivered files (BENCH_ZIP_FILES × BENCH_ZIP_MB of random bytes in a temporary DATA_DIR); this process
// downloads the zip through HTTP, discarding it, while sampling the server's resident memory (VmRSS of
// /proc/<pid>/status) every 20 ms. The growth over the idle server must stay under 50 MB. Then a client that
// hangs up half-way: the server must answer the next request and hold no file open.
//
//   npm run bench:zip            (BENCH_ZIP_FILES=5 BENCH_ZIP_MB=100 BENCH_ZIP_LIMIT_MB=50)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import { spawn } from "node:child_process";

const FILES = Number(process.env.BENCH_ZIP_FILES ?? 5);
const MB = Number(process.env.BENCH_ZIP_MB ?? 100);
const LIMIT_MB = Number(process.env.BENCH_ZIP_LIMIT_MB ?? 50);

async function serve() {
  const { startPortal } = await import("#server/boot");
  const { readEnv } = await import("#server/env");
  const { createResearcher } = await import("../tests/helpers/factories");
  const { signIn } = await import("../tests/helpers/portal");
  const { completedOrder, pdfBytes, storeLargeDeliverable } = await import("../tests/helpers/deliverables");
  const { zipStats } = await import("#server/orders/downloads");
  const env = readEnv({
    ...process.env,
    PORT: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    CONFIG_RATE_LIMITS: JSON.stringify({ signInPerMinute: 1e9, registrationsPerHour: 1e9 }),
  });
  const portal = await startPortal({ env });
  const user = await createResearcher(portal.ctx);
  const order = await completedOrder(portal.ctx, user, [{ name: "cover-letter.pdf", bytes: pdfBytes() }]);
  for (let i = 1; i <= FILES; i++) await storeLargeDeliverable(portal.ctx, order.orderId, user.id, `chapter-${i}.pdf`, MB * 1024 * 1024);
  const client = await signIn(portal, user);
  // Lets the parent ask how many zip files are open (after an aborted download).
  portal.server.on("request", (req, res) => {
    if (req.url === "/__bench/zip-stats") res.end(JSON.stringify(zipStats()));
  });
  global.gc?.();
  process.stdout.write(`BENCH_READY ${JSON.stringify({ url: portal.url, cookie: client.cookieHeader(), externalId: order.externalId })}\n`);
  process.on("SIGTERM", () => void portal.stop().then(() => process.exit(0)));
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-zip-"));
  const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", process.argv[1], "--serve"], {
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const cleanup = () => {
    child.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    process.stdout.write(`Preparing ${FILES} × ${MB} MB of delivered files in ${dataDir}…\n`);
    const ready = await new Promise<{ url: string; cookie: string; externalId: string }>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d;
        const m = /BENCH_READY (.+)\n/.exec(out);
        if (m) resolve(JSON.parse(m[1]));
      });
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
    const url = new URL(`/api/order/${ready.externalId}/deliverables.zip`, ready.url);
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssOf(child.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 20);
    const started = Date.now();
    const { received, length } = await new Promise<{ received: number; length: number }>((resolve, reject) => {
      http
        .get(url, { headers: { cookie: ready.cookie } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`zip: HTTP ${res.statusCode}`));
          let received = 0;
          res.on("data", (chunk: Buffer) => (received += chunk.length));
          res.on("end", () => resolve({ received, length: Number(res.headers["content-length"]) }));
          res.on("error", reject);
        })
        .on("error", reject);
    });
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(child.pid!));
    const growth = peak - idle;

    // A client that hangs up after 50 MB.
    await new Promise<void>((resolve) => {
      const req = http.get(url, { headers: { cookie: ready.cookie } }, (res) => {
        let seen = 0;
        res.on("data", (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 50 * 1024 * 1024) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on("error", () => resolve());
    });
    await new Promise((r) => setTimeout(r, 300));
    const stats = (await (await fetch(new URL("/__bench/zip-stats", ready.url))).json()) as { openZipFiles: number };
    const health = await fetch(new URL("/api/order/search", ready.url), { headers: { cookie: ready.cookie } });

    const ok = received === length && growth < LIMIT_MB * 1024 * 1024 && stats.openZipFiles === 0 && health.status === 200;
    process.stdout.write(
      [
        `zip: ${mb(received)} of Content-Length ${mb(length)} in ${seconds.toFixed(1)} s (${(received / 1024 / 1024 / seconds).toFixed(0)} MB/s)`,
        `server RSS: idle ${mb(idle)}, peak ${mb(peak)}, growth ${mb(growth)} (limit ${LIMIT_MB} MB)`,
        `after a client hung up at 50 MB: ${stats.openZipFiles} zip files open, next request HTTP ${health.status}`,
        ok ? "PASS" : "FAIL",
        "",
      ].join("\n"),
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    cleanup();
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
