import type { ProviderLink } from "#server/auth/social";

/**
 * Social sign-in buttons: plain links (browser navigation to /api/auth/opa/{providerId}), so they work
 * without JavaScript. The label ("Continue with {name}", namespace `social`) is translated by the loader,
 * so the page needs no extra namespace to hydrate. Icons show only from our own origin (same-origin path).
 */
export function SocialButtons({ providers }: { providers: ProviderLink[] }) {
  if (!providers.length) return null;
  return (
    <ul className="social-buttons">
      {providers.map((p) => (
        <li key={p.id}>
          <a className="button" href={p.href} data-provider={p.id}>
            {p.icon && p.icon.startsWith("/") && !p.icon.startsWith("//") ? (
              <img src={p.icon} alt="" width={20} height={20} aria-hidden="true" />
            ) : null}
            <span>{p.label || p.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
