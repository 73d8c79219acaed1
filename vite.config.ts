import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import remixConfig from "./remix.config.js";

/**
 * Each client script and stylesheet also written compressed at the highest levels (`x.js.br`, brotli 11;
 * `x.js.gz`, gzip 9), served by server/http/precompressed.ts. The compression middleware compresses on the fly
 * at brotli level 4: the portal's first-load JavaScript is ~13 % smaller at level 11 (sign-in 113 → 99 KiB;
 * issue 26 §4, ADR 080), and the assets are immutable, so the slow level is paid once, here.
 */
function precompress(): Plugin {
  let outDir = "";
  let isSsr = false;
  return {
    name: "portal-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
      isSsr = Boolean(config.build.ssr);
    },
    closeBundle() {
      if (isSsr) return;
      const dir = path.join(outDir, "assets");
      if (!fs.existsSync(dir)) return;
      for (const name of fs.readdirSync(dir)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const file = path.join(dir, name);
        const source = fs.readFileSync(file);
        // Below ~1 KiB the compression middleware sends files as they are (its threshold); so do we.
        if (source.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: zlib.constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}

export default defineConfig({
  plugins: [remix(remixConfig), precompress()],
  resolve: {
    // One set of aliases (tsconfig.json "paths" says the same for tsc and tsx).
    alias: [
      { find: /^#common\//, replacement: new URL("./app/common/", import.meta.url).pathname },
      { find: /^#app\//, replacement: new URL("./app/", import.meta.url).pathname },
      { find: /^#server\//, replacement: new URL("./server/", import.meta.url).pathname },
    ],
  },
  build: { target: "es2020", assetsInlineLimit: 0 },
  ssr: { noExternal: [] },
  server: { host: "127.0.0.1" },
});
