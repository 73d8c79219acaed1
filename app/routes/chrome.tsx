import { Outlet, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Header } from "~/components/Header";
import { Footer } from "~/components/Footer";
import { ErrorPanel } from "~/components/ErrorPanel";

// Page chrome shared by every page except the order form.
function Chrome({ children }: { children: React.ReactNode }) {
  return (
    <>
      <Header />
      <main id="main" className="page">
        {children}
      </main>
      <Footer />
    </>
  );
}

export default function ChromeLayout() {
  return (
    <Chrome>
      <Outlet />
    </Chrome>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Chrome>
      <ErrorPanel status={isRouteErrorResponse(error) ? error.status : 500} />
    </Chrome>
  );
}
