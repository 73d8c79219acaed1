// Remix Vite plugin options in one place (imported by vite.config.ts).
// All v3 future flags are on so a later move to React Router 7 is mechanical.
/** @type {import("@remix-run/dev").VitePluginConfig} */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
};
