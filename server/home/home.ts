// The home area of the newer document platform (spec 3 §2 "Home area", §3 "Home dashboard", §9; issue 25 item 6,
// ADR 077): the welcome, recent orders (page 1, the newest 3), recent documents (digital edits and translation
// orders, the newest 3, `processing` while any is being worked on), and the 'more options' widgets' data.
import type { Scope } from "../scope";
import { getUserView } from "../accounts/account";
import { searchMyOrders, referralLinkOf, toPanel, type OrderPanel } from "../orders/dashboard";
import { dashboardBalance } from "../payments/balances";
import { searchDigitalEdits, searchDigitalOrders } from "../digital";
import { preferredGroupOf, type PreferredGroupView } from "../groups";

/** Spec 3 §9 "Home". */
export const HOME_RECENT_ORDERS = 3;
export const HOME_RECENT_DOCUMENTS = 3;

export interface HomeDocument {
  kind: "edit" | "translation";
  identity: string;
  fileName: string;
  status: "processing" | "completed" | "failed";
  createdAt: string;
}

export interface HomeView {
  fullName: string;
  recentOrders: OrderPanel[];
  documents: HomeDocument[];
  /** Any document still processing: the page refreshes itself until none is. */
  processing: boolean;
  referralLink: string | null;
  preferredGroup: PreferredGroupView | null;
  /** The credit balance widget: only when invoices are not hidden and the balance is above 0. */
  balance: Awaited<ReturnType<typeof dashboardBalance>>;
}

/** The signed-in researcher's newest documents of both kinds (a kind they may not open contributes none). */
export async function recentDocuments(scope: Scope, limit = HOME_RECENT_DOCUMENTS): Promise<HomeDocument[]> {
  const [edits, translations] = await Promise.all([
    searchDigitalEdits(scope, { page: 1 }),
    searchDigitalOrders(scope, { page: 1, type: "translation" }),
  ]);
  const docs: HomeDocument[] = [
    ...(edits.ok
      ? edits.value.results.map((e) => ({
          kind: "edit" as const,
          identity: e.identity,
          fileName: e.fileName,
          status: e.status,
          createdAt: e.createdAt,
        }))
      : []),
    ...(translations.ok
      ? translations.value.results.map((o) => ({
          kind: "translation" as const,
          identity: o.identity,
          fileName: o.fileName,
          status: o.status,
          createdAt: o.createdAt,
        }))
      : []),
  ];
  return docs.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
}

export async function homeOf(scope: Scope): Promise<HomeView | null> {
  if (scope.userId === null) return null;
  const [user, orders, documents, referralLink, preferredGroup, balance] = await Promise.all([
    getUserView(scope.app, scope.userId),
    searchMyOrders(scope, { page: 1 }),
    recentDocuments(scope),
    referralLinkOf(scope),
    preferredGroupOf(scope),
    dashboardBalance(scope),
  ]);
  if (!user) return null;
  return {
    fullName: user.fullName,
    recentOrders: orders.ok ? orders.value.orders.slice(0, HOME_RECENT_ORDERS).map(toPanel) : [],
    documents,
    processing: documents.some((d) => d.status === "processing"),
    referralLink,
    preferredGroup,
    balance: user.hideInvoices ? null : balance,
  };
}
