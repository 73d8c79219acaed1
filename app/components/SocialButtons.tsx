import type { ProviderLink } from "../../server/auth/social";

/** Social sign-in buttons: plain links (browser navigation to /api/auth/opa/{providerId}), so they work without JavaScript. */
export function SocialButtons({ providers }: { providers: ProviderLink[] }) {
  if (!providers.length) return null;
  return (
    <ul className="social-buttons">
      {providers.map((p) => (
        <li key={p.id}>
          <a className="button" href={p.href} data-provider={p.id}>
            {p.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
