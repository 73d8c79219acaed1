// npm start: migrate, seed, serve. `--dev` serves through Vite with hot reload.
// React loads its development or production build by NODE_ENV when first imported, so it is set
// before anything else loads: the development build renders pages about twice as slowly.
process.env.NODE_ENV ??= process.argv.includes("--dev") ? "development" : "production";
const { startPortal } = await import("../server/boot");
const { readEnv } = await import("../server/env");
export {};

async function main() {
  const env = readEnv();
  const dev = process.argv.includes("--dev");
  let devMiddleware;
  let build;
  if (dev) {
    const vite = await import("vite");
    const server = await vite.createServer({ server: { middlewareMode: true } });
    devMiddleware = server.middlewares;
    build = () => server.ssrLoadModule("virtual:remix/server-build") as never;
  }
  const portal = await startPortal({ env, devMiddleware, build });
  const lines = [
    "",
    `Researcher portal is running at ${portal.url}/`,
    `  database: ${portal.ctx.dbKind === "pglite" ? `embedded PGlite in ${env.DATA_DIR}` : "PostgreSQL"}`,
    `  cache:    ${portal.ctx.cache.kind === "redis" ? "Redis" : "in-process"}`,
  ];
  if (portal.demoAccounts.length) {
    lines.push("  demo accounts:");
    for (const a of portal.demoAccounts) lines.push(`    ${a.role.padEnd(10)} ${a.email}  password: ${a.password}`);
  }
  lines.push("  Stop with Ctrl+C.", "");
  process.stdout.write(lines.join("\n") + "\n");

  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    portal.ctx.logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 8000);
    force.unref();
    portal.stop().then(
      () => process.exit(0),
      (error) => {
        portal.ctx.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error) => {
  if ((error as { code?: string }).code === "DATA_DIR_LOCKED") {
    process.stderr.write(`\n${(error as Error).message}\n\n`);
  } else {
    process.stderr.write(`\nThe portal could not start: ${(error as Error).stack ?? error}\n\n`);
  }
  process.exit(1);
});
