// Translations for components, on the server and in the browser. It does the
// part of i18next the portal's strings use: namespaces ("ns:key"), nested keys,
// {{value}} interpolation, plurals (key_one, key_other... chosen by
// Intl.PluralRules when `count` is given), returnObjects for lists, and <Trans>
// with named tags.
// A page's namespaces are embedded in its HTML (root.tsx); others load from our
// own /locales when a client-side navigation needs them. i18next itself stays on
// the server (loaders, e-mails, PDFs); keeping it out of the browser saves
// ~14 KiB of gzipped JavaScript on every first load (DESIGN §7, ADR 010).
// tests/unit/translate.test.ts checks every key of every locale against i18next.
import {
  Children,
  cloneElement,
  createContext,
  createElement,
  Fragment,
  isValidElement,
  useContext,
  useEffect,
  useState,
  type ReactElement,
  type ReactNode,
} from "react";
import { DEFAULT_NS, LANG_LOCALE, LANG_TAG, type SiteLang } from "#common/i18n";

export type Resources = Record<string, Record<string, unknown>>;
export type TOptions = { returnObjects?: boolean; [value: string]: unknown };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TFunction = (key: string, options?: TOptions) => any;

const PLACEHOLDER = /{{([^}]+)}}/g;

/** {{name}} replaced by options.name, as i18next does with escapeValue off: a missing value leaves the placeholder. */
export function interpolate(text: string, values?: TOptions): string {
  if (!values) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const key = name.trim();
    if (!Object.prototype.hasOwnProperty.call(values, key)) return whole;
    const v = values[key];
    return v === undefined || v === null ? "" : String(v);
  });
}

export class Translator {
  private listeners = new Set<() => void>();
  private pluralRules = new Map<"cardinal" | "ordinal", Intl.PluralRules>();
  private loading = new Map<string, Promise<void>>();
  private failed = new Set<string>();

  constructor(
    readonly lang: SiteLang,
    readonly resources: Resources,
    private fetchNamespace?: (lang: SiteLang, ns: string) => Promise<Record<string, unknown>>,
  ) {}

  /** The BCP 47 tag of the language (en-US, zh-CN, ...). */
  get language(): string {
    return LANG_TAG[this.lang];
  }

  has(ns: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.resources, ns);
  }

  private lookup(ns: string, key: string): unknown {
    let node: unknown = this.resources[ns];
    for (const part of key.split(".")) {
      if (node === null || typeof node !== "object") return undefined;
      node = (node as Record<string, unknown>)[part];
    }
    return node;
  }

  private plural(type: "cardinal" | "ordinal"): Intl.PluralRules {
    let rules = this.pluralRules.get(type);
    if (!rules) this.pluralRules.set(type, (rules = new Intl.PluralRules(this.language, { type })));
    return rules;
  }

  /**
   * The keys i18next (JSON v4) tries, first to last, when `count` is given and is not a string: key_zero
   * for a count of exactly 0 (not ordinal), then key_<category> of the language's plural rules (for
   * `ordinal: true` key_<category> before key_ordinal_<category>, i18next's own order), then the key.
   */
  private pluralKeys(path: string, count: unknown, ordinal: boolean): string[] {
    const category = this.plural(ordinal ? "ordinal" : "cardinal").select(count as number);
    if (ordinal) return [`${path}_${category}`, `${path}_ordinal_${category}`, path];
    return count === 0 ? [`${path}_zero`, `${path}_${category}`, path] : [`${path}_${category}`, path];
  }

  /** Like i18next's t: "ns:key" or a key of `ns`; an unknown key comes back as itself (without the namespace). */
  translate(ns: string, key: string, options?: TOptions): unknown {
    const colon = key.indexOf(":");
    const [namespace, path] = colon > 0 ? [key.slice(0, colon), key.slice(colon + 1)] : [ns, key];
    const count = options?.count;
    let value: unknown;
    if (count === undefined || typeof count === "string") value = this.lookup(namespace, path);
    else
      for (const candidate of this.pluralKeys(path, count, Boolean(options?.ordinal))) {
        value = this.lookup(namespace, candidate);
        // As i18next: a null value is no translation, an empty string is one.
        if (value !== undefined && value !== null) break;
      }
    if (typeof value === "string") return interpolate(value, options);
    if (value !== undefined && value !== null && options?.returnObjects) return value;
    return path;
  }

  fixedT(ns: string = DEFAULT_NS): TFunction {
    return (key, options) => this.translate(ns, key, options);
  }

  /** Loads namespaces this page did not embed (after a client-side navigation). */
  load(namespaces: string[]): Promise<void> {
    const missing = namespaces.filter((ns) => !this.has(ns));
    if (!missing.length || !this.fetchNamespace) return Promise.resolve();
    return Promise.all(
      missing.map((ns) => {
        let p = this.loading.get(ns);
        if (!p) {
          p = this.fetchNamespace!(this.lang, ns).then(
            (data) => {
              this.resources[ns] = data;
              this.failed.delete(ns);
              for (const l of this.listeners) l();
            },
            () => {
              // Not loaded (offline): components show keys instead of waiting, and load again after rendering.
              this.loading.delete(ns);
              this.failed.add(ns);
            },
          );
          this.loading.set(ns, p);
        }
        return p;
      }),
    ).then(() => undefined);
  }

  /** Whether a component may wait for these namespaces: they can be fetched and have not just failed. */
  canWaitFor(namespaces: string[]): boolean {
    return Boolean(this.fetchNamespace) && namespaces.every((ns) => !this.failed.has(ns));
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The browser's loader for namespaces a page did not embed. */
export function fetchLocaleNamespace(lang: SiteLang, ns: string): Promise<Record<string, unknown>> {
  return fetch(`/locales/${LANG_LOCALE[lang]}/${ns}.json`).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))));
}

const TranslatorContext = createContext<Translator | null>(null);

export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return createElement(TranslatorContext.Provider, { value: translator }, children);
}

export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error("useTranslation needs a TranslatorProvider");
  return translator;
}

/**
 * Waits for namespaces: suspends while they load (after a client-side navigation), and re-renders when a
 * failed load is retried and arrives. True when they are all here.
 */
function useNamespaces(translator: Translator, list: string[]): boolean {
  const ready = list.every((n) => translator.has(n));
  // A client-side navigation to a page whose namespaces this page did not embed: suspend until they are
  // here. Remix navigates in a React transition, so the old page stays on screen meanwhile instead of
  // the new one showing raw keys. (Server renders and hydration always have them: they never suspend.)
  if (!ready && translator.canWaitFor(list)) throw translator.load(list);
  const [, rerender] = useState(0);
  const wanted = list.join(",");
  useEffect(() => {
    if (ready) return;
    // Here only when a load failed (offline): the keys show, another load is tried, and its arrival re-renders.
    const stop = translator.subscribe(() => rerender((n) => n + 1));
    void translator.load(wanted.split(","));
    return stop;
  }, [translator, ready, wanted]);
  return ready;
}

/** t for a namespace (the first of a list; "ns:key" reaches the others), and whether they are all loaded. */
export function useTranslation(ns?: string | string[]): { t: TFunction; i18n: { language: string }; ready: boolean } {
  const translator = useTranslator();
  const list = ns === undefined ? [DEFAULT_NS] : Array.isArray(ns) ? ns : [ns];
  const ready = useNamespaces(translator, list);
  return { t: translator.fixedT(list[0]), i18n: { language: translator.language }, ready };
}

/**
 * The namespaces the matched routes declare (`handle.i18n`), loaded before the page renders. A component
 * names one namespace in useTranslation and reaches the others as "ns:key" (the services step's
 * "catalogue:services.…"); only the route knows them all. The root calls this with its matches, so a
 * client-side navigation keeps the old page on screen until every namespace of the new one is here,
 * instead of showing raw keys until a reload (issue 9 §3.12).
 */
export function useRouteNamespaces(namespaces: string[]): boolean {
  return useNamespaces(useTranslator(), namespaces);
}

/** The namespaces of a list of route matches: the default one and each route's `handle.i18n`, in order. */
export function routeNamespaces(matches: { handle?: unknown }[]): string[] {
  const namespaces = new Set<string>([DEFAULT_NS]);
  for (const m of matches) {
    const ns = (m.handle as { i18n?: string | string[] } | undefined)?.i18n;
    for (const n of Array.isArray(ns) ? ns : ns ? [ns] : []) namespaces.add(n);
  }
  return [...namespaces];
}

const TAG = /<(\w+)\s*\/>|<(\w+)>([\s\S]*?)<\/\2>/g;

/**
 * A translation with markup: <name>inner</name> (or <name/>) in the string becomes
 * components[name] with the inner text as its children, as react-i18next's Trans.
 */
export function Trans({
  t,
  i18nKey,
  values,
  components = {},
}: {
  t: TFunction;
  i18nKey: string;
  values?: TOptions;
  components?: Record<string, ReactElement>;
}) {
  const text = String(t(i18nKey, values));
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(TAG)) {
    if (m.index! > last) out.push(text.slice(last, m.index));
    const name = m[1] ?? m[2];
    const element = components[name];
    if (element && isValidElement(element))
      out.push(
        cloneElement(
          element as ReactElement<{ children?: ReactNode }>,
          { key: `t${n++}` },
          m[3] ?? (element.props as { children?: ReactNode }).children,
        ),
      );
    else out.push(m[3] ?? "");
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return createElement(Fragment, null, ...Children.toArray(out));
}
